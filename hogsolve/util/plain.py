"""Plain JSON values for every result's ``to_dict()``: one convention, no loss.

numpy scalars become numbers, arrays lists, fractions exact strings
(``"235445/559872"``), infinite or NaN floats the strings ``"inf"``,
``"-inf"``, ``"nan"`` (standard JSON has no such numbers), tuples lists,
results with a ``to_dict`` their dict.

>>> from fractions import Fraction
>>> import numpy as np
>>> plain({"p": Fraction(1, 3), "n": np.int64(3), "a": np.arange(2), 4: (1.5,)})
{'p': '1/3', 'n': 3, 'a': [0, 1], '4': [1.5]}
"""
from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np


def plain(value):
    """``value`` as JSON-ready Python values (see the module docstring)."""
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else str(float(value))
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, str) else k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "to_dict") and not isinstance(value, type):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain(dataclasses.asdict(value))
    return value


def finite(x) -> "float | None":
    """A probability for a page's JSON: rounded to 6 places, and None rather than a non-standard
    NaN or infinity."""
    x = float(x)
    return round(x, 6) if math.isfinite(x) else None
