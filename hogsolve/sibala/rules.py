"""Sibala hands: evaluation and comparison, the kata's rules and known variants.

Four six-sided dice.  All four equal is "all of a kind" and beats everything;
between two, faces rank 1 > 4 > 6 > 5 > 3 > 2.  Exactly one pair: the other
two dice sum to the points.  Two pairs: the larger of the two possible sums.
All different, or three of a kind plus one: no point.  Equal points: the
hand whose summed dice hold the larger single die wins; still equal, a tie.
"""
from __future__ import annotations

from ..errors import HogsolveError
import dataclasses
from collections import Counter
from typing import Optional, Sequence, Tuple

from ..util.plain import plain

ALL_OF_A_KIND = "all of a kind"
NORMAL_POINT = "normal point"
NO_POINT = "no point"
KATA_KIND_ORDER = (1, 4, 6, 5, 3, 2)   # strongest first
FACE_KIND_ORDER = (6, 5, 4, 3, 2, 1)


class SibalaError(HogsolveError, ValueError):
    """Dice that are not four ints from 1 to 6."""


@dataclasses.dataclass(frozen=True)
class Variant:
    """Rule options found in the wild; the default is the kata's rules.

    ``triple_scores``: three of a kind plus one scores as a pair plus the
    remaining two dice (5 5 5 3 -> 8) instead of no point.
    ``face_rank``: all of a kind ranked by face value (6 highest) instead of
    1 > 4 > 6 > 5 > 3 > 2.
    """

    triple_scores: bool = False
    face_rank: bool = False

    @property
    def kind_order(self) -> Tuple[int, ...]:
        """All-of-a-kind faces from strongest to weakest under this variant."""
        return FACE_KIND_ORDER if self.face_rank else KATA_KIND_ORDER

    def names(self) -> list:
        """The variant's option names (empty for the kata's rules)."""
        return [n for n, on in (("triple-scores", self.triple_scores), ("face-rank", self.face_rank)) if on]


KATA = Variant()


@dataclasses.dataclass(frozen=True)
class Hand:
    """An evaluated hand: category, points (None for no point), tie-break die.

    For all of a kind, ``points`` is the face and ``tie_die`` is None.
    """

    dice: Tuple[int, ...]
    category: str
    points: int | None
    tie_die: int | None

    def strength(self, variant: Variant = KATA) -> Tuple[int, int, int]:
        """A key that orders hands: larger is stronger, equal is a tie."""
        if self.category == ALL_OF_A_KIND:
            return (2, 6 - variant.kind_order.index(self.points), 0)
        if self.category == NORMAL_POINT:
            assert self.points is not None and self.tie_die is not None  # a normal point has both
            return (1, self.points, self.tie_die)
        return (0, 0, 0)

    def describe(self) -> str:
        """The hand in words, e.g. ``6 6 2 2: normal point 12 (十八), tie-break die 6``."""
        if self.category == ALL_OF_A_KIND:
            return f"{' '.join(map(str, self.dice))}: all of a kind of {self.points}"
        if self.category == NORMAL_POINT:
            name = {3: " (BG)", 12: " (十八)"}.get(self.points or 0, "")
            return (f"{' '.join(map(str, self.dice))}: normal point {self.points}{name}, "
                    f"tie-break die {self.tie_die}")
        return f"{' '.join(map(str, self.dice))}: no point"


def check_dice(dice: Sequence[int]) -> Tuple[int, ...]:
    """Four ints from 1 to 6, or a SibalaError."""
    try:
        values = tuple(dice)
    except TypeError:
        raise SibalaError(f"dice must be a sequence of four ints, got {dice!r}") from None
    if len(values) != 4:
        raise SibalaError(f"a hand is four dice, got {len(values)}")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise SibalaError(f"each die must be an int from 1 to 6, got {v!r}")
    return values


def evaluate(dice: Sequence[int], variant: Variant = KATA) -> Hand:
    """The category, points and tie-break die of four dice.

    >>> evaluate([6, 6, 2, 2]).points, evaluate([1, 1, 2, 2]).points
    (12, 4)
    """
    dice = check_dice(dice)
    counts = Counter(dice)
    shape = sorted(counts.values(), reverse=True)
    if shape == [4]:
        return Hand(dice, ALL_OF_A_KIND, dice[0], None)
    if shape == [2, 1, 1]:
        rest = [face for face, c in counts.items() if c == 1]
        return Hand(dice, NORMAL_POINT, sum(rest), max(rest))
    if shape == [2, 2]:
        high = max(counts)
        return Hand(dice, NORMAL_POINT, 2 * high, high)
    if shape == [3, 1] and variant.triple_scores:
        triple = next(face for face, c in counts.items() if c == 3)
        single = next(face for face, c in counts.items() if c == 1)
        return Hand(dice, NORMAL_POINT, triple + single, max(triple, single))
    return Hand(dice, NO_POINT, None, None)


@dataclasses.dataclass(frozen=True)
class Verdict:
    """Who wins a comparison: ``side`` "Black", "White" or None (a tie), and the winning hand."""

    side: Optional[str]
    hand: Optional[Hand]

    def __iter__(self):
        return iter((self.side, self.hand))

    def to_dict(self) -> dict:
        """The verdict as plain JSON values."""
        return plain({"side": self.side, "hand": self.hand})


def winner(black: Sequence[int], white: Sequence[int], variant: Variant = KATA) -> Verdict:
    """The :class:`Verdict` of Black's dice against White's."""
    b, w = evaluate(black, variant), evaluate(white, variant)
    kb, kw = b.strength(variant), w.strength(variant)
    if kb == kw:
        return Verdict(None, None)
    return Verdict("Black", b) if kb > kw else Verdict("White", w)


def compare(black: Sequence[int], white: Sequence[int], variant: Variant = KATA) -> str:
    """The kata's line: ``White win. - with normal point: 9``, ``Tie.``."""
    side, hand = winner(black, white, variant)
    if side is None:
        return "Tie."
    return f"{side} win. - with {hand.category}: {hand.points}"
