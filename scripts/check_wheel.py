"""Check that a built wheel holds every package file and data file of the source tree.

    python scripts/check_wheel.py dist/hogsolve-*.whl

Expected files are the ones git tracks under hogsolve/ and solutions/ (the
latter installed as hogsolve/solutions/), plus the LICENSE.  Exit 1 and a
list of what is missing if any is left out.
"""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def tracked(folder: str) -> list:
    out = subprocess.run(["git", "ls-files", folder], cwd=ROOT, capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if line]


def expected_files() -> set:
    files = set(tracked("hogsolve"))
    files |= {"hogsolve/" + path for path in tracked("solutions")}
    return files


def main(wheel: str) -> int:
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(expected_files() - names)
    if not any(n.endswith(".dist-info/licenses/LICENSE") for n in names):
        missing.append("LICENSE (in .dist-info/licenses/)")
    if missing:
        print(f"{wheel} is missing {len(missing)} file(s):", *missing, sep="\n  ")
        return 1
    print(f"{wheel}: all {len(expected_files())} package and data files present, and the LICENSE")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python scripts/check_wheel.py WHEEL")
    sys.exit(main(sys.argv[1]))
