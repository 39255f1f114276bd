"""Free Bacon: the points of a turn of zero dice, and the digit helpers the rules share.

Each rule takes the opponent's score (or both scores, when marked with :func:`both_scores`) and
works on plain ints and on numpy arrays alike.
"""
from __future__ import annotations

import functools

import numpy as np


def tens(score):
    """Tens digit of a score (5 -> 0, 46 -> 4, 111 -> 1)."""
    return score // 10 % 10


def ones(score):
    """Ones digit of a score."""
    return score % 10


def _smaller(a, b):
    """min(a, b) for ints, element-wise minimum for arrays."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.minimum(a, b)
    return min(a, b)


def digit_count(score):
    """How many digits a score has (1 for 0 to 9), for ints or arrays."""
    return np.floor(np.log10(np.maximum(np.asarray(score), 1))).astype(np.int64) + 1


def as_result(out):
    """A plain int or bool for a scalar rule result; arrays stay arrays."""
    return out.item() if np.ndim(out) == 0 else out


def _larger(a, b):
    """max(a, b) for ints, element-wise maximum for arrays."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.maximum(a, b)
    return max(a, b)


# ------------------------------------------------------------ Free Bacon ----

def bacon_product_digit(opponent_score):
    """su18: 1 + last digit of (tens digit x ones digit) of the opponent's score.

    Example (su18's official ``free_bacon`` examples):

    >>> bacon_product_digit(35), bacon_product_digit(71), bacon_product_digit(7)
    (6, 8, 1)
    """
    return 1 + tens(opponent_score) * ones(opponent_score) % 10


def bacon_twice_tens_minus_ones(opponent_score):
    """fa18: max(2 * tens - ones, 1) of the opponent's score.

    Example (fa18's official ``free_bacon`` examples):

    >>> bacon_twice_tens_minus_ones(35), bacon_twice_tens_minus_ones(71), bacon_twice_tens_minus_ones(7)
    (1, 13, 1)
    """
    return _larger(2 * tens(opponent_score) - ones(opponent_score), 1)


def bacon_larger_digit(opponent_score):
    """fa13: 1 + the larger of the opponent's two digits.

    Example (fa17's official ``free_bacon`` examples):

    >>> bacon_larger_digit(35), bacon_larger_digit(71), bacon_larger_digit(7)
    (6, 8, 8)
    """
    return 1 + _larger(tens(opponent_score), ones(opponent_score))


def bacon_digit_difference(opponent_score):
    """fa14: 1 + |tens - ones| of the opponent's score.

    Example (fa14 has no official example; by the rule's text, 1 + |3 - 5| and 1 + |7 - 1|):

    >>> bacon_digit_difference(35), bacon_digit_difference(71)
    (3, 7)
    """
    return 1 + abs(tens(opponent_score) - ones(opponent_score))


def bacon_two_plus_digit_difference(opponent_score):
    """sp18: 2 + |tens - ones| of the opponent's score.

    Example (sp18's official ``free_bacon`` examples):

    >>> bacon_two_plus_digit_difference(35), bacon_two_plus_digit_difference(71), bacon_two_plus_digit_difference(7)
    (4, 8, 9)
    """
    return 2 + abs(tens(opponent_score) - ones(opponent_score))


def bacon_ten_minus_smaller_digit(opponent_score):
    """su19/fa19: 10 - min(tens, ones) of the opponent's score.

    Example (su19's and fa19's official ``free_bacon`` examples):

    >>> bacon_ten_minus_smaller_digit(35), bacon_ten_minus_smaller_digit(71), bacon_ten_minus_smaller_digit(9)
    (7, 9, 10)
    """
    return 10 - _smaller(tens(opponent_score), ones(opponent_score))


ONE_SEVENTH_DIGITS = np.array([1, 4, 2, 8, 5, 7])  # 1/7 = 0.142857 142857 ...
PI_DIGITS = np.array([int(d) for d in (
    "31415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679")])


def bacon_one_seventh_digit(opponent_score):
    """fa21 Picky Piggy: the n-th digit after the point of 1/7 = 0.142857..., n = the
    opponent's score; 7 when n is 0.

    Example (fa21's official ``picky_piggy`` examples):

    >>> [int(bacon_one_seventh_digit(n)) for n in (0, 1, 2)]
    [7, 1, 4]
    """
    n = np.asarray(opponent_score)
    return as_result(np.where(n == 0, 7, ONE_SEVENTH_DIGITS[(np.maximum(n, 1) - 1) % 6]))


def bacon_pi_digit(opponent_score):
    """fa20: 3 + the n-th digit of pi (n = the opponent's score; digit 0 is the leading 3).

    Example (fa20's official ``free_bacon`` examples):

    >>> [int(bacon_pi_digit(n)) for n in (0, 1, 2)]
    [6, 4, 7]
    """
    return as_result(3 + PI_DIGITS[np.minimum(np.asarray(opponent_score), len(PI_DIGITS) - 1)])


def bacon_smallest_square_digit(opponent_score):
    """sp21 Piggy Points: 3 + the smallest digit of the opponent's score squared.

    Example (sp21's official ``piggy_points`` examples):

    >>> [int(bacon_smallest_square_digit(n)) for n in (4, 10, 94)]
    [4, 3, 6]
    """
    n = np.asarray(opponent_score)
    smallest = np.array([min(int(d) for d in str(x * x)) for x in range(int(n.max()) + 1)])
    return as_result(3 + smallest[n])


def bacon_pig_tail(opponent_score):
    """fa22/sp23 Pig Tail: 2 |tens - ones| + 1 of the opponent's score.

    Example (fa22's official ``tail_points`` examples):

    >>> bacon_pig_tail(25), bacon_pig_tail(52), bacon_pig_tail(0)
    (7, 7, 1)
    """
    return 2 * abs(tens(opponent_score) - ones(opponent_score)) + 1


def table_size(*values, least: int = 128) -> int:
    """A power of two (at least ``least``) above every entry of ``values``: cached lookup
    tables grow by doubling, so a handful of sizes serve every goal."""
    top = max((int(np.max(v)) for v in values if np.size(v)), default=0)
    size = least
    while size <= top:
        size *= 2
    return size


def table_rule(value_of):
    """A rule of one score computed by ``value_of(int)`` (exact Python ints), looked up
    from a table so that it also works on arrays."""
    @functools.lru_cache(maxsize=8)
    def table(size):
        return np.array([value_of(n) for n in range(size)], dtype=np.int64)

    def lookup(score):
        s = np.asarray(score)
        return as_result(table(table_size(s))[s])
    return lookup


def _alternating_digit_sum(n: int) -> int:
    """ones - tens + hundreds - ... of ``n`` (the sign does not matter once made absolute)."""
    return sum(int(d) * (-1) ** i for i, d in enumerate(reversed(str(n))))


_cube_alternating = table_rule(lambda n: 1 + abs(_alternating_digit_sum(n ** 3)))


def bacon_cube_alternating_digits(opponent_score):
    """sp20: 1 + |alternating sum of the digits of the opponent's score cubed|
    (20 ** 3 = 8000 -> |8 - 0 + 0 - 0| + 1 = 9).

    Example (sp20's official ``free_bacon`` examples):

    >>> [int(bacon_cube_alternating_digits(n)) for n in (4, 1, 20)]
    [3, 2, 9]
    """
    return _cube_alternating(opponent_score)


def bacon_ten_minus_ones_plus_tens(opponent_score):
    """su20: 10 - ones + tens of the opponent's score.

    Example (su20's official ``free_bacon`` examples):

    >>> bacon_ten_minus_ones_plus_tens(4), bacon_ten_minus_ones_plus_tens(1), bacon_ten_minus_ones_plus_tens(20)
    (6, 9, 12)
    """
    return 10 - ones(opponent_score) + tens(opponent_score)


def both_scores(rule):
    """Mark a zero-dice rule as taking ``(score, opponent_score)`` rather than ``(opponent_score)``."""
    rule.uses_score = True
    return rule


@both_scores
def bacon_boar_brawl(score, opponent_score):
    """fa23 onward, Boar Brawl: max(3 |tens of the opponent - ones of the mover|, 1).

    Example (fa23's official ``boar_brawl`` examples):

    >>> bacon_boar_brawl(21, 46), bacon_boar_brawl(52, 79), bacon_boar_brawl(0, 0)
    (9, 15, 1)
    """
    return _larger(3 * abs(tens(opponent_score) - ones(score)), 1)


_HEFTY_STEPS = (
    lambda v: v + 1, lambda v: v ** 2, lambda v: v * 3, lambda v: v // 4, lambda v: v - 5,
    lambda v: v % 6, lambda v: int((v % 7) * 8), lambda v: int(v * 8.8), lambda v: int(v / 99 * 15) + 10,
    lambda v: v)


def _hefty_hogs_one(score: int, opponent_score: int) -> int:
    value = score
    for digit in reversed(str(opponent_score)):  # from the ones digit leftwards; 0 is one digit 0
        value = _HEFTY_STEPS[int(digit)](value)
    return value % 30


@functools.lru_cache(maxsize=8)
def _hefty_table(size: int) -> np.ndarray:
    return np.array([[_hefty_hogs_one(s, o) for o in range(size)] for s in range(size)], dtype=np.int64)


@both_scores
def bacon_hefty_hogs(score, opponent_score):
    """sp22 Hefty Hogs: start from the mover's score and, for each digit of the opponent's
    score from the ones digit leftwards, apply that digit's function; the result mod 30
    (it can be 0).  An opponent's score of 0 is one digit 0.

    Example (sp22's official ``hefty_hogs`` examples):

    >>> [int(bacon_hefty_hogs(5, o)) for o in (123, 456)]
    [9, 29]
    """
    s, o = np.asarray(score), np.asarray(opponent_score)
    return as_result(_hefty_table(table_size(s, o))[s, o])


def bacon_not_a_move(opponent_score):
    """For rulesets where zero dice is not a move (``min_dice`` 1): never used, scores 0.

    Example (neller and Presser's Hog: never called):

    >>> bacon_not_a_move(35)
    0
    """
    return 0 * opponent_score
