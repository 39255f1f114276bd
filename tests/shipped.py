"""A private copy of some shipped tables, for tests that damage or replace one."""
import shutil
from pathlib import Path

SOLUTIONS = Path(__file__).resolve().parent.parent / "solutions"


def copy_shipped(destination: Path, *names: str) -> Path:
    """Copy the shipped tables of ``names`` (not all of solutions/) into ``destination``."""
    destination.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copytree(SOLUTIONS / name, destination / name)
    return destination
