"""How much memory a solve needs, checked before anything is allocated.

A float solve keeps about three arrays of ``goal**2 x (max_dice + 1)``
float64 at its peak (measured: 272 MB above the interpreter at goal 1000
with 10 dice, against 264 MB for three such arrays).  Exact mode keeps two
such arrays of Python integers of about ``(2 goal - 1) x max_dice x log2(12)``
bits each.
"""
from __future__ import annotations

from ..errors import HogsolveError
import math
import os
from typing import Optional

from ..hog.rules import Ruleset

GB = 1024 ** 3
_OVERHEAD = 64 * 1024 ** 2  # interpreter, numpy, small arrays


class MemoryLimitError(HogsolveError, ValueError):
    """A solve would need more memory than the limit."""


def estimate_bytes(goal: int, max_dice: int, exact: bool = False) -> int:
    """Peak bytes of solving a ruleset at ``goal`` with up to ``max_dice`` dice."""
    cells = goal * goal * (max_dice + 1)
    total = 3.5 * cells * 8 + _OVERHEAD
    if exact:
        bits = (2 * goal - 1) * max_dice * math.log2(12)
        total += 2 * cells * (8 + 28 + bits / 8)
    return int(total)


def available_bytes() -> int:
    """Memory the machine can give now (MemAvailable on Linux, else physical memory)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 8 * GB


def physical_bytes() -> int:
    """The machine's physical memory: no solve can use more."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 1 << 62


def check_fits(rules: Ruleset, *, exact: bool = False, limit_gb: Optional[float] = None,
               physical: bool = False) -> None:
    """Raise :class:`MemoryLimitError` when solving ``rules`` would exceed the limit.

    The limit is ``limit_gb`` if given, else the memory available now (the machine's
    physical memory with ``physical``: the library's own check, which a larger
    ``--max-memory`` may not override below).
    """
    exact = exact and not rules.context_shape  # history rules are solved in floats only
    need = estimate_bytes(int(rules.goal), int(rules.max_dice), exact)
    contexts = 1
    for size in rules.context_shape:  # a history rule multiplies the states (memories of both players)
        contexts *= size
    need = _OVERHEAD + (need - _OVERHEAD) * contexts
    _refuse_beyond(need, limit_gb, f"goal {rules.goal}{' in exact mode' if exact else ''}", physical)


def estimate_pig_bytes(goal: int) -> int:
    """Peak bytes of solving or evaluating a roll-or-hold game at ``goal``: 32 arrays of
    ``goal**3`` float64 (measured with tracemalloc: solve 16, best response 6, regret 30)."""
    return 32 * 8 * goal ** 3 + _OVERHEAD


def check_pig_fits(game, *, limit_gb: Optional[float] = None, physical: bool = False) -> None:
    """Raise :class:`MemoryLimitError` when a roll-or-hold ``game`` would exceed the limit (as
    :func:`check_fits`)."""
    _refuse_beyond(estimate_pig_bytes(int(game.goal)), limit_gb, f"{game.name} at goal {game.goal}", physical)


def is_limit(limit_gb: float) -> bool:
    """True for a usable memory limit: a positive number of GB whose bytes are finite."""
    return limit_gb > 0 and math.isfinite(limit_gb * GB)


def _refuse_beyond(need: int, limit_gb: Optional[float], what: str, physical: bool = False) -> None:
    """The limit is ``limit_gb`` if given (a positive finite number of GB), else the memory
    available now, or with ``physical`` the machine's memory."""
    if physical:
        limit, source = physical_bytes(), f"this machine's {physical_bytes() / GB:.1f} GB"
    elif limit_gb is not None:
        if not is_limit(limit_gb):
            raise MemoryLimitError(f"--max-memory takes a positive finite number of GB, got {limit_gb:g}")
        limit, source = int(limit_gb * GB), f"the limit of {limit_gb:g} GB (--max-memory)"
    else:
        limit, source = available_bytes(), f"the {available_bytes() / GB:.1f} GB available"
    if need > limit:
        raise MemoryLimitError(f"{what} needs about {need / GB:.3g} GB, more than {source}; choose a smaller "
                               "--goal" + ("" if limit_gb is not None or physical else " or raise --max-memory"))
