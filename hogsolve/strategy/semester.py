"""Which semester a student's project folder is from, read from the course's ok file.

Every CS 61A project folder since 2017 carries ``proj01.ok`` (older ones
``hog.ok`` or ``proj1.ok``): a JSON file whose ``endpoint`` names the course
and semester, ``cal/cs61a/fa23/proj01``.  A verb given a student's file and no
``--rules`` plays that semester's rules, and says so in one line; without an
ok file it says which ruleset it assumed and how to choose.  The file is read
as data, never run.  An endpoint of another course (a high school's copy of
the project, ``sfhs/ap_csp/fa21/proj01``) names no CS 61A semester.
"""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Iterable, List, Optional, Tuple

from ..errors import HogsolveError
from ..hog.rules import NOT_BUILT_IN, UnknownRulesetError, get_rules

#: The ok files the course shipped with Hog, in the order they are looked for (any other
#: ``*.ok`` with an endpoint comes after them).
OK_NAMES = ("proj01.ok", "hog.ok", "proj1.ok")
#: The ruleset assumed when nothing names one.
DEFAULT_RULES = "su18"
_ENDPOINT = re.compile(r"^cal/cs61a/((?:sp|su|fa)\d\d)/", re.IGNORECASE)
_MOST_BYTES = 1 << 20  # an ok file is a few hundred bytes; a larger one is not the course's


class SemesterError(HogsolveError, ValueError):
    """The folders name no usable semester (several, or one hogsolve does not know); one line."""


def semester_of_endpoint(endpoint: str) -> Optional[str]:
    """``fa23`` of ``cal/cs61a/fa23/proj01``; None for another course's endpoint."""
    match = _ENDPOINT.match(endpoint.strip())
    return match.group(1).lower() if match else None


@dataclasses.dataclass(frozen=True)
class CourseFile:
    """A course ok file: where it is, its endpoint, and the CS 61A semester it names (None when
    the endpoint is another course's, such as a high school's copy of the project)."""

    path: Path
    endpoint: str
    semester: Optional[str]


def course_file(folder: Path) -> Optional[CourseFile]:
    """The ok file of ``folder`` with an endpoint: proj01.ok, hog.ok or proj1.ok first, then any
    other ``*.ok`` in name order; None when there is none (or none is readable JSON)."""
    try:
        others = sorted(p for p in folder.glob("*.ok") if p.name not in OK_NAMES)
    except OSError:
        return None
    for path in [folder / name for name in OK_NAMES] + others:
        try:
            if not path.is_file() or path.stat().st_size > _MOST_BYTES:
                continue
            data = json.loads(path.read_text(encoding="utf-8", errors="replace"))
        except (OSError, ValueError, RecursionError):
            continue
        endpoint = data.get("endpoint") if isinstance(data, dict) else None
        if isinstance(endpoint, str) and endpoint.strip():
            return CourseFile(path, endpoint.strip(), semester_of_endpoint(endpoint))
    return None


def _ruleset_name(semester: str) -> str:
    """The built-in ruleset of ``semester`` (an alias resolved); SemesterError naming what is not
    known about it."""
    try:
        return get_rules(semester).name
    except UnknownRulesetError:
        why = NOT_BUILT_IN.get(semester, "hogsolve does not know its rules")
        raise SemesterError(f"{semester} is not built in: {why}") from None


@dataclasses.dataclass(frozen=True)
class RulesChoice:
    """The ruleset a verb plays and the lines that say why (each one line, for stderr)."""

    name: Optional[str]  # None: keep the --rules the user gave
    notes: Tuple[str, ...]


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def choose_rules(student_files: Iterable[Path], given: Optional[str], *,
                 given_name: Optional[str] = None) -> RulesChoice:
    """The ruleset for verbs run on ``student_files``, from their folders' ok files.

    ``given`` is what the user named (``--rules``), None when nothing was; ``given_name`` the
    built-in ruleset it resolved to.  With a name
    given it is kept, and an ok file that names another semester's rules gets a warning; without
    one, the one semester the folders name is played (SemesterError when they name several, or
    one whose rules are not built in), or :data:`DEFAULT_RULES` with a note when none does.
    """
    folders = sorted({Path(f).resolve().parent for f in student_files})
    found: List[CourseFile] = [c for c in (course_file(folder) for folder in folders) if c is not None]
    cal = [c for c in found if c.semester is not None]
    if given is not None:
        notes = []
        for c in cal:
            try:
                theirs = _ruleset_name(c.semester or "")
            except SemesterError:
                theirs = None
            if theirs != given_name:
                plays = "" if given.lower() == given_name else f" ({given_name}'s rules)"
                names = f"{c.semester}" + (f" ({theirs}'s rules)" if theirs and theirs != c.semester else "")
                notes.append(f"warning: --rules {given}{plays} is not the semester {_shown(c.path)} names: {names}")
        return RulesChoice(None, tuple(dict.fromkeys(notes)))  # each line once
    if not folders:
        return RulesChoice(DEFAULT_RULES, ())
    by_rules: dict = {}
    for c in cal:
        try:
            name = _ruleset_name(c.semester or "")
        except SemesterError as exc:
            raise SemesterError(f"{_shown(c.path)} names {c.endpoint}: {exc}; --rules NAME plays another "
                                "ruleset") from None
        by_rules.setdefault(name, []).append(c)
    if len(by_rules) > 1:
        named = "; ".join(f"{name} from {', '.join(_shown(c.path) for c in files[:2])}"
                          + (f" and {len(files) - 2} more" if len(files) > 2 else "")
                          for name, files in sorted(by_rules.items()))
        raise SemesterError(f"the entries come from semesters with different rules ({named}): name one with "
                            "--rules NAME")
    if by_rules:
        (name, files), = by_rules.items()
        semesters = sorted({c.semester for c in files if c.semester})
        label = semesters[0] if len(semesters) == 1 else "/".join(semesters)
        rules = "" if label == name else f" ({name}'s rules)"
        where = _shown(files[0].path) + (f" and {len(files) - 1} more" if len(files) > 1 else "")
        lone = [f for f in folders if all(c.path.parent != f for c in cal)]
        notes = [f"rules: {label}{rules}, from {where} (--rules NAME plays another ruleset)"]
        if lone:
            notes.append(f"note: {len(lone)} of the {len(folders)} folders name no semester; they play {name} too")
        return RulesChoice(name, tuple(notes))
    other = next((c for c in found if c.semester is None), None)
    if other is not None:
        why = f"{_shown(other.path)} names {other.endpoint}, not a CS 61A semester"
    else:
        why = "no course .ok file (proj01.ok) beside the strategy names its semester"
    return RulesChoice(DEFAULT_RULES, (f"note: {why}; assuming {DEFAULT_RULES} (--rules NAME chooses the "
                                       "semester, such as --rules fa23)",))

