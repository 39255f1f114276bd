"""Result types every game family shares, so each verb prints and serialises them once."""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class WinRate:
    """P(a wins) with a moving first, with b moving first, and their average."""

    a: str
    b: str
    first: float
    second: float

    @property
    def average(self) -> float:
        """The CS 61A win rate: the mean of the two seatings."""
        return (self.first + self.second) / 2

    def to_dict(self) -> dict:
        """The win rate as plain JSON values."""
        return {"a": self.a, "b": self.b, "first": self.first, "second": self.second,
                "average": self.average}
