"""The rule components after the roll: Swine Swap, bonuses, turn-score rules, extra turns,
Feral Hogs' memories and the dice's sides.

Each works on plain ints and on numpy arrays alike; :func:`named` gives a component the
course's name for it, which the game logs show.
"""
from __future__ import annotations

import dataclasses
import functools
import math
from typing import Callable, Dict, Tuple

import numpy as np

from .bacon import as_result, digit_count, table_rule, table_size, ones, tens


# A swap rule is called on (mover's new score, opponent's score).

def swap_ones_equals_tens(score, opponent_score):
    """su18: swap when the mover's ones digit equals the opponent's tens digit.

    Example (su18's official ``is_swap`` examples):

    >>> bool(swap_ones_equals_tens(19, 91)), bool(swap_ones_equals_tens(91, 19)), bool(swap_ones_equals_tens(36, 13))
    (True, True, False)
    """
    return ones(score) == tens(opponent_score)


def swap_equal_digit_gaps(score, opponent_score):
    """fa18: swap when |tens - ones| is the same for both scores (5 reads as 05).

    Example (fa18's official ``is_swap`` examples):

    >>> bool(swap_equal_digit_gaps(19, 91)), bool(swap_equal_digit_gaps(91, 19)), bool(swap_equal_digit_gaps(36, 13))
    (True, True, False)
    """
    return abs(tens(score) - ones(score)) == abs(tens(opponent_score) - ones(opponent_score))


def swap_double(score, opponent_score):
    """fa13/fa14: swap when one score is exactly double the other.

    Example (sp17's official ``is_swap`` examples):

    >>> bool(swap_double(19, 91)), bool(swap_double(20, 40)), bool(swap_double(40, 20))
    (False, True, True)
    """
    return (score == 2 * opponent_score) | (opponent_score == 2 * score)


def swap_reversed_digits(score, opponent_score):
    """su15/fa15/sp16: swap when the last two digits of one score are those of the other
    reversed (5 reads as 05).

    Example (su15's and fa15's official ``is_swap`` examples):

    >>> bool(swap_reversed_digits(19, 91)), bool(swap_reversed_digits(20, 40)), bool(swap_reversed_digits(41, 14))
    (True, False, True)
    """
    return score % 100 == ones(opponent_score) * 10 + tens(opponent_score)


def swap_multiple(score, opponent_score):
    """fa17/sp18: swap when both scores exceed 1 and one is a whole multiple of the other.

    Example (fa17's and sp18's official ``is_swap`` examples):

    >>> bool(swap_multiple(19, 91)), bool(swap_multiple(20, 40)), bool(swap_multiple(40, 20))
    (False, True, True)
    """
    s, o = np.asarray(score), np.asarray(opponent_score)
    both = (s > 1) & (o > 1)
    return as_result(both & ((np.maximum(s, o) % np.maximum(np.minimum(s, o), 1)) == 0))


def leading_digit(score):
    """The leftmost digit of a score (0 for 0)."""
    s = np.asarray(score)
    return as_result(s // 10 ** (digit_count(s) - 1))


def swap_leading_equals_last(score, opponent_score):
    """su19: swap when the mover's leftmost digit equals the opponent's last digit.

    Example (su19's official ``is_swap`` examples):

    >>> [bool(swap_leading_equals_last(a, b)) for a, b in ((56, 32), (56, 35), (89, 91))]
    [False, True, False]
    """
    return leading_digit(score) == ones(opponent_score)


def swap_leading_times_last(score, opponent_score):
    """fa19: swap when leftmost digit x last digit is the same for both scores.

    Example (fa19's official ``is_swap`` examples):

    >>> bool(swap_leading_times_last(2, 4)), bool(swap_leading_times_last(22, 4)), bool(swap_leading_times_last(28, 4))
    (False, False, True)
    """
    return leading_digit(score) * ones(score) == leading_digit(opponent_score) * ones(opponent_score)


def _three_power_ends_match(n: int) -> bool:
    digits = str(3 ** n)
    return digits[0] == digits[-1]


_three_power_swap = table_rule(_three_power_ends_match)


def swap_three_power_ends(score, opponent_score):
    """sp20: swap when 3 ** (score sum) has equal first and last digits.

    Example (sp20's official ``is_swap`` examples):

    >>> bool(swap_three_power_ends(2, 4)), bool(swap_three_power_ends(11, 1)), bool(swap_three_power_ends(1, 0))
    (False, False, True)
    """
    out = _three_power_swap(score + opponent_score)
    return out.astype(bool) if isinstance(out, np.ndarray) else bool(out)


def swap_ones_gap_is_tens(score, opponent_score):
    """su20: swap when |mover's ones - opponent's ones| equals the opponent's tens digit.

    Example (su20's official ``is_swap`` examples):

    >>> bool(swap_ones_gap_is_tens(2, 4)), bool(swap_ones_gap_is_tens(11, 1)), bool(swap_ones_gap_is_tens(1, 0))
    (False, True, False)
    """
    return abs(ones(score) - ones(opponent_score)) == tens(opponent_score)


def never_swap(score, opponent_score):
    """No Swine Swap at all.

    Example (sp15 onward without a swap: su15's swapping example does not swap):

    >>> bool(never_swap(19, 91))
    False
    """
    return score != score


def named(name: str, *parts: Tuple[str, Callable]):
    """Give a rule component its CS 61A name (``rule_name``), shown wherever it fires; a rule
    made of ``parts`` (name, test) is named by the parts that hold."""
    def mark(rule):
        rule.rule_name = name
        rule.rule_parts = parts
        return rule
    return mark


# ------------------------------------------------------- after-turn bonus ---
# A bonus rule is called on (mover's new score, opponent's score) before the
# swap test and returns extra points for the mover (never negative).

def no_bonus(score, opponent_score):
    """No score change after the turn.

    Example (fa21's Hog Pile example scores nothing here):

    >>> int(no_bonus(7, 7))
    0
    """
    return 0 * score


@named("Hog Pile")
def bonus_hog_pile_equal(score, opponent_score):
    """fa21 Hog Pile: a mover who lands on the opponent's score gains that many points again.

    Example (fa21's official ``hog_pile`` examples):

    >>> [int(bonus_hog_pile_equal(a, b)) for a, b in ((25, 43), (32, 33), (7, 7))]
    [0, 0, 7]
    """
    return np.where(score == opponent_score, score, 0) if isinstance(score, np.ndarray) \
        else (score if score == opponent_score else 0)


@named("Hog Pile")
def bonus_hog_pile_ones(score, opponent_score):
    """sp22 Hog Pile: a mover whose new score ends in the opponent's ones digit gains that digit.

    Example (sp22's official ``hog_pile`` examples):

    >>> [int(bonus_hog_pile_ones(a, b)) for a, b in ((25, 43), (32, 33), (7, 7))]
    [0, 0, 7]
    """
    return np.where(ones(score) == ones(opponent_score), ones(score), 0) if isinstance(score, np.ndarray) \
        else (ones(score) if ones(score) == ones(opponent_score) else 0)


@functools.lru_cache(maxsize=8)
def _number_tables(size: int):
    """``(is_prime, next_prime, num_factors)`` for 0 .. size - 1, by sieves (vectorised rules
    look up every score at once instead of factoring each)."""
    is_prime = np.ones(size, dtype=bool)
    is_prime[:2] = False
    for d in range(2, int(size ** 0.5) + 1):
        if is_prime[d]:
            is_prime[d * d::d] = False
    primes = np.flatnonzero(is_prime)
    next_prime = primes[np.searchsorted(primes, np.arange(size), side="right").clip(max=len(primes) - 1)]
    num_factors = np.zeros(size, dtype=np.int64)
    for d in range(1, size):
        num_factors[d::d] += 1
    return is_prime, next_prime, num_factors


def _tables_for(score):
    """Number tables large enough for ``score`` and the prime after it (Bertrand: below 2n)."""
    top = int(np.max(score)) if np.size(score) else 0
    return _number_tables(table_size(2 * top + 3, least=64))


def _prime_rule(score, qualifies):
    """Points to the next prime where ``qualifies(is_prime, num_factors)`` holds at ``score``."""
    s = np.asarray(score)
    is_prime, next_prime, num_factors = _tables_for(s)
    return as_result(np.where(qualifies(is_prime[s], num_factors[s]), next_prime[s] - s, 0))


@named("Pigs on Prime")
def bonus_pigs_on_prime(score, opponent_score):
    """su22 Pigs on Prime: a prime new score (1 counts, as the official games show) rises
    to the next prime.

    Example (su22's official ``pigs_on_prime`` examples):

    >>> [int(bonus_pigs_on_prime(a, b)) for a, b in ((25, 43), (7, 7), (32, 33))]
    [0, 4, 0]
    """
    return _prime_rule(score, lambda prime, factors: prime | (factors == 1))


@named("Square Swine")
def bonus_square_swine(score, opponent_score):
    """fa22/sp23 Square Swine: a perfect-square new score becomes the next perfect square.

    Example (fa22's official ``next_perfect_square`` examples (1 -> 4, 9 -> 16, 64 -> 81)):

    >>> [s + int(bonus_square_swine(s, 0)) for s in (1, 9, 64, 2)]
    [4, 16, 81, 2]
    """
    s = np.asarray(score)
    root = np.rint(np.sqrt(s)).astype(np.int64)
    return as_result(np.where(root * root == s, (root + 1) ** 2 - s, 0))


@named("Sus Fuss")
def bonus_sus_fuss(score, opponent_score):
    """fa23 onward, Sus Fuss: a new score with exactly 3 or 4 factors (1 and itself
    included) becomes the next prime above it.

    Example (fa23's official ``sus_points`` examples (1 -> 1, 21 -> 23, 25 -> 29)):

    >>> [s + int(bonus_sus_fuss(s, 0)) for s in (1, 21, 25)]
    [1, 23, 29]
    """
    return _prime_rule(score, lambda prime, factors: (factors == 3) | (factors == 4))


# ---------------------------------------------- points-dependent bonus ------
# A points bonus is called on (mover's new score, opponent's score, the turn's
# points) and returns (mover's extra, opponent's extra): it may reward either player.

@named("Hogtimus Prime")
def prime_sum_leader_gains(score, opponent_score, points):
    """sp15 Hogtimus Prime: after the turn, if the two scores differ and their sum is prime,
    the player in the lead gains the turn's points again.

    Example (sp15: 11 against 20 after a turn of 3 points: the sum 31 is prime, the opponent leads):

    >>> [tuple(int(x) for x in prime_sum_leader_gains(s, 20, 3)) for s in (11, 13)]
    [(0, 3), (0, 0)]
    """
    s, o, p = np.asarray(score), np.asarray(opponent_score), np.asarray(points)
    is_prime = _tables_for(s + o)[0]
    fire = (s != o) & is_prime[s + o]
    return as_result(np.where(fire & (s > o), p, 0)), as_result(np.where(fire & (o > s), p, 0))


# --------------------------------------------------- turn-score rules -------

def ones_capped(ones, num_dice):
    """sp17 Pig Out: the number of 1s rolled, at most 11 - the number of dice.

    Example (sp17's official ``roll_dice`` examples: two 1s of 4 dice, nine 1s of 9 dice, five of 7):

    >>> ones_capped(2, 4), ones_capped(9, 9), ones_capped(5, 7)
    (2, 2, 4)
    """
    return min(ones, 11 - num_dice)


def same_score(points, num_dice):
    """The turn scores what the dice (or zero dice) gave.

    Example (what the dice gave):

    >>> same_score(9, 2)
    9
    """
    return points


@named("Hogtimus Prime")
def hogtimus_prime(points, num_dice):
    """sp17/fa15/sp16 Hogtimus Prime: a prime turn score becomes the next prime.

    Example (fa15's official examples: a turn of 3 scores 5, Free Bacon's 7 scores 11):

    >>> int(hogtimus_prime(3, 1)), int(hogtimus_prime(7, 0)), int(hogtimus_prime(10, 2))
    (5, 11, 10)
    """
    return points + _prime_rule(points, lambda prime, factors: prime)


# ------------------------------------------------------------- extra turn ---
# An extra-turn rule is called on the scores (mover, opponent) after the
# bonus and the swap; True means the same player moves again.

def no_extra_turn(score, opponent_score):
    """Players always alternate.

    Example (fa20's Swine Align example is no extra turn here):

    >>> bool(no_extra_turn(11, 22))
    False
    """
    return score != score


def _gcd(a, b):
    return np.gcd(a, b) if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else math.gcd(a, b)


def pig_pass(score, opponent_score):
    """fa20 Pig Pass: an extra turn when the mover trails by 1 or 2.

    Example (fa20's official ``pig_pass`` examples, and trailing by 2):

    >>> bool(pig_pass(5, 4)), bool(pig_pass(13, 10)), bool(pig_pass(7, 10)), bool(pig_pass(8, 10))
    (False, False, False, True)
    """
    return (score < opponent_score) & (opponent_score - score < 3)


def swine_align(score, opponent_score):
    """fa20 Swine Align: an extra turn when both scores are positive with a greatest common
    divisor of at least 10.

    Example (fa20's official ``swine_align`` examples):

    >>> bool(swine_align(2, 4)), bool(swine_align(11, 22)), bool(swine_align(36, 24))
    (False, True, True)
    """
    return (score > 0) & (opponent_score > 0) & (_gcd(score, opponent_score) >= 10)


@named("Pig Pass or Swine Align", ("Pig Pass", pig_pass), ("Swine Align", swine_align))
def extra_pig_pass_or_swine_align(score, opponent_score):
    """fa20: an extra turn by Pig Pass or by Swine Align.

    Example (fa20's official examples of both parts):

    >>> [bool(extra_pig_pass_or_swine_align(a, b)) for a, b in ((5, 4), (8, 10), (11, 22), (2, 40))]
    [False, True, True, False]
    """
    return pig_pass(score, opponent_score) | swine_align(score, opponent_score)


@named("More Boar")
def extra_more_boar(score, opponent_score):
    """sp21 More Boar: an extra turn when the mover's two leading digits are both smaller than
    the opponent's (a one-digit score reads as 0x).

    Example (sp21's official ``more_boar`` examples):

    >>> [bool(extra_more_boar(a, b)) for a, b in ((21, 43), (32, 33), (6, 18))]
    [True, False, True]
    """
    def leading_two(x):
        x = np.asarray(x)
        top = x // 10 ** np.maximum(digit_count(x) - 2, 0)  # the two leading digits (or 0x)
        return top // 10, top % 10
    a1, a2 = leading_two(score)
    b1, b2 = leading_two(opponent_score)
    return as_result((a1 < b1) & (a2 < b2))


#: The name of each kind of rule where neither the ruleset (``Ruleset.names``) nor the
#: component (:func:`named`) gives one.
RULE_NAMES: Dict[str, str] = {
    "pig_out": "Pig Out", "free_bacon": "Free Bacon", "dice_sides": "Hog Wild", "swaps": "Swine Swap",
    "piggy_back": "Piggy Back", "history": "Feral Hogs", "turn_score": "Turn score rule",
    "bonus": "Bonus", "extra_turn": "Extra turn", "points_bonus": "Points bonus",
}


# ---------------------------------------------------------------- history ---

@dataclasses.dataclass(frozen=True)
class FeralHogs:
    """Feral Hogs (fa19, sp20, su20): ``bonus`` extra points when the number of dice rolled
    now differs by exactly ``gap`` from what this player remembers of their own previous
    turn: the dice they rolled (fa19) or the points they scored, bonus excluded (sp20/su20);
    0 before a player's first turn.  The bonus is added with the turn's points, before the
    after-turn rules.  Remembered values above ``max_dice + gap`` all act alike, so a
    player's memory takes :meth:`size` values (the last one standing for all larger)."""

    rule_name: str
    remembers: str  # "dice" or "points"
    bonus: int = 3
    gap: int = 2

    @property
    def __name__(self) -> str:  # named like the function components
        return self.rule_name

    def points(self, num_dice, previous):
        """Bonus points of rolling ``num_dice`` after ``previous`` (ints or arrays).

        Example (fa19's rule text: 2 dice on a first turn, remembered 0, is exactly 2 away):

        >>> int(FERAL_HOGS_DICE.points(2, 0)), int(FERAL_HOGS_DICE.points(4, 0)), int(FERAL_HOGS_DICE.points(1, 3))
        (3, 0, 3)
        """
        hit = abs(np.asarray(num_dice) - np.asarray(previous)) == self.gap
        return as_result(np.where(hit, self.bonus, 0))

    def remembered(self, num_dice, points):
        """What the mover remembers of this turn."""
        return num_dice if self.remembers == "dice" else points

    def size(self, max_dice: int) -> int:
        """How many remembered values behave differently."""
        return max_dice + 1 if self.remembers == "dice" else max_dice + self.gap + 2

    def index(self, value, max_dice: int):
        """The remembered value as an index below :meth:`size`."""
        return np.minimum(value, self.size(max_dice) - 1)

    def memory(self, num_dice, points, max_dice: int):
        """What the mover remembers of a turn of ``num_dice`` dice scoring ``points``, as an
        index below :meth:`size` (ints or arrays)."""
        return self.index(self.remembered(num_dice, points), max_dice)


FERAL_HOGS_DICE = FeralHogs("feral_hogs_dice", "dice")
FERAL_HOGS_POINTS = FeralHogs("feral_hogs_points", "points")


# ------------------------------------------------------------ dice sides ----
# A dice-sides rule is called on the scores *before* the turn.

def six_sided(score, opponent_score):
    """Ordinary six-sided dice in every state.

    Example (where sp15's Hog Wild would give four-sided dice):

    >>> six_sided(4, 24), six_sided(0, 0)
    (6, 6)
    """
    return 6


def hog_wild(score, opponent_score):
    """fa13/fa14 Hog Wild: four-sided dice when the score sum is a multiple of 7 (0 too).

    Example (sp15's official ``select_dice`` examples):

    >>> hog_wild(4, 24), hog_wild(16, 64), hog_wild(0, 0)
    (4, 6, 4)
    """
    return 6 - 2 * ((score + opponent_score) % 7 == 0)
