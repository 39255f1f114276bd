"""Counted words for messages people read: "1 die", "2 dice", "1 round", "3 rounds"."""
from __future__ import annotations

from typing import Optional

_IRREGULAR = {"die": "dice"}


def plural(count: int, word: str, many: Optional[str] = None) -> str:
    """``count`` and ``word``, in the plural unless ``count`` is 1 (``many`` or an English -s).

    >>> plural(1, "die"), plural(4, "die"), plural(1, "round"), plural(0, "point")
    ('1 die', '4 dice', '1 round', '0 points')
    """
    return f"{count} {word if count == 1 else many or _IRREGULAR.get(word, word + 's')}"
