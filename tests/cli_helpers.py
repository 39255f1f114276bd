"""Run the command line in-process, as a subprocess would see it (exit code, stdout, stderr).

Every verb also runs as a real subprocess, from an installed wheel, in CI's
scripts/smoke_install.py; here the tests stay fast.
"""
import contextlib
import dataclasses
import io
import sys

from hogsolve.cli import main


@dataclasses.dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def run_main(*args, stdin=None) -> Result:
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse's --help and --version
                code = exc.code if isinstance(exc.code, int) else 0
    finally:
        sys.stdin = old_stdin
    return Result(code, out.getvalue(), err.getvalue())
