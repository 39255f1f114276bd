"""The command examples of the README and the docs, read from their Markdown, run, and compared.

A fenced block whose first line starts with ``$ `` holds commands (each ``$ ``
line) and the output each printed.  An HTML comment on the line before a block
says how it is treated:

- ``<!-- file: NAME -->`` before any block: its text is the file NAME in the
  page's working folder (a student's ``hog.py``, a rule grid), written before
  the page's commands run;
- ``<!-- run: slow -->``: the commands run only in the slow tier;
- ``<!-- run: no, REASON -->``: not run, for the reason given (a server that
  runs until stopped, commands for another machine); the reason is required;
- ``<!-- run: as in PAGE -->``: the same block, character for character, as one
  of PAGE's, which runs there (the README repeats the contest guide's).

Commands run in order in one temporary folder per page, through ``bash``, with
this interpreter's ``hogsolve`` and ``python`` first on the path, unbuffered,
their output and errors in one stream as a terminal shows them.  Output is
compared line by line after the figures that measure this machine's speed
(``12 ms``, ``0.3 s``) are replaced by ``TIME``; a line of the page that is
only ``...`` stands for any lines (a long output shortened).
"""
from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import List, Optional

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
ANNOTATION = re.compile(r"^<!-- (file|run): (.*?) -->$")
TIME = re.compile(r"\b\d+(?:\.\d+)? ?(?:ms|s)\b")


@dataclasses.dataclass
class Block:
    page: Path
    line: int                  # 1-based line of the opening fence
    text: str
    annotation: Optional[tuple]  # ("file", NAME) or ("run", WHAT)

    @property
    def commands(self) -> List[tuple]:
        """``[(command, expected output lines)]`` of a command block."""
        out = []
        for line in self.text.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif out:
                out[-1][1].append(line)
        return [(command, _trimmed(lines)) for command, lines in out]

    @property
    def is_commands(self) -> bool:
        return self.text.startswith("$ ")

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def _trimmed(lines: List[str]) -> List[str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def blocks(page: Path) -> List[Block]:
    """Every fenced block of ``page`` with the annotation on the line before it."""
    found, lines = [], page.read_text().splitlines()
    inside, start, body, annotation = False, 0, [], None
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            if inside:
                found.append(Block(page, start, "\n".join(body), annotation))
                inside = False
            else:
                inside, start, body = True, number, []
                before = next((x for x in reversed(lines[:number - 1]) if x.strip()), "")
                match = ANNOTATION.match(before.strip())
                annotation = (match.group(1), match.group(2)) if match else None
        elif inside:
            body.append(line)
    return found


def normalised(lines: List[str]) -> List[str]:
    """Lines with this machine's timings replaced by ``TIME`` and trailing spaces dropped."""
    return [TIME.sub("TIME", line).rstrip() for line in lines]


def matches(expected: List[str], got: List[str]) -> bool:
    """True when ``got`` is ``expected``, normalised, a ``...`` line standing for any lines."""
    expected, got = normalised(expected), normalised(got)
    if "..." not in (line.strip() for line in expected):
        return expected == got
    pattern = "\n".join(".*?" if line.strip() == "..." else re.escape(line) for line in expected)
    return re.fullmatch(pattern.replace("\n.*?\n", "(?:\n.*?)?\n"), "\n".join(got), re.S) is not None


@dataclasses.dataclass
class Mismatch:
    """A command whose output differs from what its page says."""

    block: Block
    command: str
    expected: List[str]
    got: List[str]

    def __str__(self) -> str:
        return (f"{self.block.where}: $ {self.command}\n--- the page says\n" + "\n".join(self.expected)
                + "\n--- it printed\n" + "\n".join(self.got))


def run_page(page: Path, folder: Path, slow: bool) -> List[Mismatch]:
    """Run the page's command blocks in ``folder`` (``slow``: the slow ones too); return every
    command whose output differs from the page's."""
    page_blocks = blocks(page)
    for block in page_blocks:
        if block.annotation and block.annotation[0] == "file":
            target = folder / block.annotation[1]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.text + "\n")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "HOGSOLVE_CACHE": str(folder / ".cache"), "COLUMNS": "100", "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}
    problems = []
    for block in page_blocks:
        if not block.is_commands or block.annotation == ("run", "slow") and not slow:
            continue
        if block.annotation and block.annotation[0] == "run" and block.annotation[1] != "slow":
            continue
        for command, expected in block.commands:
            result = subprocess.run(["bash", "-c", command], cwd=folder, env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True, timeout=900, stdin=subprocess.DEVNULL)
            got = _trimmed(result.stdout.splitlines())  # stdout and stderr as a terminal shows them
            if not matches(expected, got):
                problems.append(Mismatch(block, command, expected, got))
    return problems


def unexplained_skips() -> List[str]:
    """Command blocks marked not to run without a reason, or said to be another page's block
    that the page does not hold."""
    bad = []
    for page in PAGES:
        for block in blocks(page):
            if not block.annotation or block.annotation[0] != "run" or block.annotation[1] == "slow":
                continue
            what = block.annotation[1]
            if what.startswith("as in "):
                other = ROOT / what[len("as in "):]
                if not other.exists() or block.text not in [b.text for b in blocks(other)]:
                    bad.append(f"{block.where}: not a block of {what[len('as in '):]}")
            elif not re.match(r"no, \S", what):
                bad.append(block.where)
    return bad


def update_page(page: Path, folder: Path, slow: bool) -> int:
    """Rewrite the outputs of ``page``'s command blocks with what the commands print now
    (``python tests/docs_examples.py --update PAGE...``, then read the diff); returns how many
    outputs changed."""
    problems = run_page(page, folder, slow)
    lines = page.read_text().splitlines()  # read after the run: edits made meanwhile stay
    for problem in reversed(problems):  # from the bottom up: the line numbers above stay right
        i = next(n for n in range(problem.block.line, len(lines)) if lines[n] == f"$ {problem.command}")
        j = i + 1
        while j < len(lines) and not lines[j].startswith("$ ") and not lines[j].startswith("```"):
            j += 1
        kept = [""] if not lines[j - 1].strip() and j - 1 > i else []  # a blank line before the next command
        lines[i + 1: j] = problem.got + kept
    page.write_text("\n".join(lines) + "\n")
    return len(problems)


if __name__ == "__main__":
    import argparse
    import tempfile
    parser = argparse.ArgumentParser(description="rewrite the docs' command outputs with what they print now")
    parser.add_argument("--update", nargs="+", type=Path, metavar="PAGE", required=True)
    parser.add_argument("--slow", action="store_true", help="the slow blocks too")
    args = parser.parse_args()
    for page in args.update:
        with tempfile.TemporaryDirectory() as folder:
            print(f"{page}: {update_page(page.resolve(), Path(folder), args.slow)} outputs rewritten")
