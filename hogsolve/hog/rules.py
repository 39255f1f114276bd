"""The rules of Hog, each written once.

Every rule is a small function that works on plain ints *and* on numpy
arrays, so the game engine (one turn at a time) and the compiled model (every
state at once) share the same definition.  A :class:`Ruleset` is a frozen
composition of such components plus ``goal`` and ``max_dice``.

Order of a turn, common to every ruleset: the mover picks 0 to ``max_dice``
dice; the roll scores its sum, or the Pig Out rule if a die shows 1 (zero
dice score the zero-dice rule); the turn-score rule may change that (sp17's
Hogtimus Prime); the points are added to the mover's score; the bonus rule
may add more (Hog Pile, Pigs on Prime, ...); the swap rule is checked on
(mover's new score, opponent's score) and applied; the game ends if either
player has reached the goal; otherwise the extra-turn rule decides whether
the mover moves again.  Semester labels that share a ruleset are
:data:`ALIASES`.

>>> su18 = get_rules("su18")
>>> su18.free_bacon(46), su18.free_bacon(28), su18.free_bacon(5)
(5, 7, 1)
>>> bool(su18.swaps(49, 92)), bool(su18.swaps(111, 12)), bool(su18.swaps(43, 5))
(True, True, False)
"""
from __future__ import annotations

from ..errors import HogsolveError
import dataclasses
import functools
import math
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import numpy as np

# ---------------------------------------------------------------- digits ----

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


def _digit_count(score):
    """How many digits a score has (1 for 0 to 9), for ints or arrays."""
    return np.floor(np.log10(np.maximum(np.asarray(score), 1))).astype(np.int64) + 1


def _as_result(out):
    """A plain int or bool for a scalar rule result; arrays stay arrays."""
    return out.item() if np.ndim(out) == 0 else out


def _larger(a, b):
    """max(a, b) for ints, element-wise maximum for arrays."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.maximum(a, b)
    return max(a, b)


# ------------------------------------------------------------ Free Bacon ----

def bacon_product_digit(opponent_score):
    """su18: 1 + last digit of (tens digit x ones digit) of the opponent's score."""
    return 1 + tens(opponent_score) * ones(opponent_score) % 10


def bacon_twice_tens_minus_ones(opponent_score):
    """fa18: max(2 * tens - ones, 1) of the opponent's score."""
    return _larger(2 * tens(opponent_score) - ones(opponent_score), 1)


def bacon_larger_digit(opponent_score):
    """fa13: 1 + the larger of the opponent's two digits."""
    return 1 + _larger(tens(opponent_score), ones(opponent_score))


def bacon_digit_difference(opponent_score):
    """fa14: 1 + |tens - ones| of the opponent's score."""
    return 1 + abs(tens(opponent_score) - ones(opponent_score))


def bacon_two_plus_digit_difference(opponent_score):
    """sp18: 2 + |tens - ones| of the opponent's score."""
    return 2 + abs(tens(opponent_score) - ones(opponent_score))


def bacon_ten_minus_smaller_digit(opponent_score):
    """su19/fa19: 10 - min(tens, ones) of the opponent's score."""
    return 10 - _smaller(tens(opponent_score), ones(opponent_score))


ONE_SEVENTH_DIGITS = np.array([1, 4, 2, 8, 5, 7])  # 1/7 = 0.142857 142857 ...
PI_DIGITS = np.array([int(d) for d in (
    "31415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679")])


def bacon_one_seventh_digit(opponent_score):
    """fa21 Picky Piggy: the n-th digit after the point of 1/7 = 0.142857..., n = the
    opponent's score; 7 when n is 0."""
    n = np.asarray(opponent_score)
    return _as_result(np.where(n == 0, 7, ONE_SEVENTH_DIGITS[(np.maximum(n, 1) - 1) % 6]))


def bacon_pi_digit(opponent_score):
    """fa20: 3 + the n-th digit of pi (n = the opponent's score; digit 0 is the leading 3)."""
    return _as_result(3 + PI_DIGITS[np.minimum(np.asarray(opponent_score), len(PI_DIGITS) - 1)])


def bacon_smallest_square_digit(opponent_score):
    """sp21 Piggy Points: 3 + the smallest digit of the opponent's score squared."""
    n = np.asarray(opponent_score)
    smallest = np.array([min(int(d) for d in str(x * x)) for x in range(int(n.max()) + 1)])
    return _as_result(3 + smallest[n])


def bacon_pig_tail(opponent_score):
    """fa22/sp23 Pig Tail: 2 |tens - ones| + 1 of the opponent's score."""
    return 2 * abs(tens(opponent_score) - ones(opponent_score)) + 1


def _table_size(*values, least: int = 128) -> int:
    """A power of two (at least ``least``) above every entry of ``values``: cached lookup
    tables grow by doubling, so a handful of sizes serve every goal."""
    top = max((int(np.max(v)) for v in values if np.size(v)), default=0)
    size = least
    while size <= top:
        size *= 2
    return size


def _table_rule(value_of):
    """A rule of one score computed by ``value_of(int)`` (exact Python ints), looked up
    from a table so that it also works on arrays."""
    @functools.lru_cache(maxsize=8)
    def table(size):
        return np.array([value_of(n) for n in range(size)], dtype=np.int64)

    def lookup(score):
        s = np.asarray(score)
        return _as_result(table(_table_size(s))[s])
    return lookup


def _alternating_digit_sum(n: int) -> int:
    """ones - tens + hundreds - ... of ``n`` (the sign does not matter once made absolute)."""
    return sum(int(d) * (-1) ** i for i, d in enumerate(reversed(str(n))))


_cube_alternating = _table_rule(lambda n: 1 + abs(_alternating_digit_sum(n ** 3)))


def bacon_cube_alternating_digits(opponent_score):
    """sp20: 1 + |alternating sum of the digits of the opponent's score cubed|
    (20 ** 3 = 8000 -> |8 - 0 + 0 - 0| + 1 = 9)."""
    return _cube_alternating(opponent_score)


def bacon_ten_minus_ones_plus_tens(opponent_score):
    """su20: 10 - ones + tens of the opponent's score."""
    return 10 - ones(opponent_score) + tens(opponent_score)


def both_scores(rule):
    """Mark a zero-dice rule as taking ``(score, opponent_score)`` rather than ``(opponent_score)``."""
    rule.uses_score = True
    return rule


@both_scores
def bacon_boar_brawl(score, opponent_score):
    """fa23 onward, Boar Brawl: max(3 |tens of the opponent - ones of the mover|, 1)."""
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
    (it can be 0).  An opponent's score of 0 is one digit 0."""
    s, o = np.asarray(score), np.asarray(opponent_score)
    return _as_result(_hefty_table(_table_size(s, o))[s, o])


def bacon_not_a_move(opponent_score):
    """For rulesets where zero dice is not a move (``min_dice`` 1): never used, scores 0."""
    return 0 * opponent_score


def zero_dice_points(rules: "Ruleset", score, opponent_score):
    """Points of rolling zero dice at (score, opponent_score), for ints or arrays."""
    if getattr(rules.free_bacon, "uses_score", False):
        return call_rule(rules.free_bacon, score, opponent_score)
    points = call_rule(rules.free_bacon, opponent_score)
    if np.ndim(score) or np.ndim(opponent_score):
        return np.broadcast_to(points, np.broadcast_shapes(np.shape(score), np.shape(opponent_score)))
    return points


# ----------------------------------------------------------- Swine Swap -----
# A swap rule is called on (mover's new score, opponent's score).

def swap_ones_equals_tens(score, opponent_score):
    """su18: swap when the mover's ones digit equals the opponent's tens digit."""
    return ones(score) == tens(opponent_score)


def swap_equal_digit_gaps(score, opponent_score):
    """fa18: swap when |tens - ones| is the same for both scores (5 reads as 05)."""
    return abs(tens(score) - ones(score)) == abs(tens(opponent_score) - ones(opponent_score))


def swap_double(score, opponent_score):
    """fa13/fa14: swap when one score is exactly double the other."""
    return (score == 2 * opponent_score) | (opponent_score == 2 * score)


def swap_reversed_digits(score, opponent_score):
    """su15/fa15/sp16: swap when the last two digits of one score are those of the other
    reversed (5 reads as 05)."""
    return score % 100 == ones(opponent_score) * 10 + tens(opponent_score)


def swap_multiple(score, opponent_score):
    """fa17/sp18: swap when both scores exceed 1 and one is a whole multiple of the other."""
    s, o = np.asarray(score), np.asarray(opponent_score)
    both = (s > 1) & (o > 1)
    return _as_result(both & ((np.maximum(s, o) % np.maximum(np.minimum(s, o), 1)) == 0))


def leading_digit(score):
    """The leftmost digit of a score (0 for 0)."""
    s = np.asarray(score)
    return _as_result(s // 10 ** (_digit_count(s) - 1))


def swap_leading_equals_last(score, opponent_score):
    """su19: swap when the mover's leftmost digit equals the opponent's last digit."""
    return leading_digit(score) == ones(opponent_score)


def swap_leading_times_last(score, opponent_score):
    """fa19: swap when leftmost digit x last digit is the same for both scores."""
    return leading_digit(score) * ones(score) == leading_digit(opponent_score) * ones(opponent_score)


def _three_power_ends_match(n: int) -> bool:
    digits = str(3 ** n)
    return digits[0] == digits[-1]


_three_power_swap = _table_rule(_three_power_ends_match)


def swap_three_power_ends(score, opponent_score):
    """sp20: swap when 3 ** (score sum) has equal first and last digits."""
    out = _three_power_swap(score + opponent_score)
    return out.astype(bool) if isinstance(out, np.ndarray) else bool(out)


def swap_ones_gap_is_tens(score, opponent_score):
    """su20: swap when |mover's ones - opponent's ones| equals the opponent's tens digit."""
    return abs(ones(score) - ones(opponent_score)) == tens(opponent_score)


def never_swap(score, opponent_score):
    """No Swine Swap at all."""
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
    """No score change after the turn."""
    return 0 * score


@named("Hog Pile")
def bonus_hog_pile_equal(score, opponent_score):
    """fa21 Hog Pile: a mover who lands on the opponent's score gains that many points again."""
    return np.where(score == opponent_score, score, 0) if isinstance(score, np.ndarray) \
        else (score if score == opponent_score else 0)


@named("Hog Pile")
def bonus_hog_pile_ones(score, opponent_score):
    """sp22 Hog Pile: a mover whose new score ends in the opponent's ones digit gains that digit."""
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
    return _number_tables(_table_size(2 * top + 3, least=64))


def _prime_rule(score, qualifies):
    """Points to the next prime where ``qualifies(is_prime, num_factors)`` holds at ``score``."""
    s = np.asarray(score)
    is_prime, next_prime, num_factors = _tables_for(s)
    return _as_result(np.where(qualifies(is_prime[s], num_factors[s]), next_prime[s] - s, 0))


@named("Pigs on Prime")
def bonus_pigs_on_prime(score, opponent_score):
    """su22 Pigs on Prime: a prime new score (1 counts, as the official games show) rises
    to the next prime."""
    return _prime_rule(score, lambda prime, factors: prime | (factors == 1))


@named("Square Swine")
def bonus_square_swine(score, opponent_score):
    """fa22/sp23 Square Swine: a perfect-square new score becomes the next perfect square."""
    s = np.asarray(score)
    root = np.rint(np.sqrt(s)).astype(np.int64)
    return _as_result(np.where(root * root == s, (root + 1) ** 2 - s, 0))


@named("Sus Fuss")
def bonus_sus_fuss(score, opponent_score):
    """fa23 onward, Sus Fuss: a new score with exactly 3 or 4 factors (1 and itself
    included) becomes the next prime above it."""
    return _prime_rule(score, lambda prime, factors: (factors == 3) | (factors == 4))


# ---------------------------------------------- points-dependent bonus ------
# A points bonus is called on (mover's new score, opponent's score, the turn's
# points) and returns (mover's extra, opponent's extra): it may reward either player.

@named("Hogtimus Prime")
def prime_sum_leader_gains(score, opponent_score, points):
    """sp15 Hogtimus Prime: after the turn, if the two scores differ and their sum is prime,
    the player in the lead gains the turn's points again."""
    s, o, p = np.asarray(score), np.asarray(opponent_score), np.asarray(points)
    is_prime = _tables_for(s + o)[0]
    fire = (s != o) & is_prime[s + o]
    return _as_result(np.where(fire & (s > o), p, 0)), _as_result(np.where(fire & (o > s), p, 0))


# --------------------------------------------------- turn-score rules -------

def ones_capped(ones, num_dice):
    """sp17 Pig Out: the number of 1s rolled, at most 11 - the number of dice."""
    return min(ones, 11 - num_dice)


def same_score(points, num_dice):
    """The turn scores what the dice (or zero dice) gave."""
    return points


@named("Hogtimus Prime")
def hogtimus_prime(points, num_dice):
    """sp17/fa15/sp16 Hogtimus Prime: a prime turn score becomes the next prime."""
    return points + _prime_rule(points, lambda prime, factors: prime)


# ------------------------------------------------------------- extra turn ---
# An extra-turn rule is called on the scores (mover, opponent) after the
# bonus and the swap; True means the same player moves again.

def no_extra_turn(score, opponent_score):
    """Players always alternate."""
    return score != score


def _gcd(a, b):
    return np.gcd(a, b) if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else math.gcd(a, b)


def pig_pass(score, opponent_score):
    """fa20 Pig Pass: an extra turn when the mover trails by 1 or 2."""
    return (score < opponent_score) & (opponent_score - score < 3)


def swine_align(score, opponent_score):
    """fa20 Swine Align: an extra turn when both scores are positive with a greatest common
    divisor of at least 10."""
    return (score > 0) & (opponent_score > 0) & (_gcd(score, opponent_score) >= 10)


@named("Pig Pass or Swine Align", ("Pig Pass", pig_pass), ("Swine Align", swine_align))
def extra_pig_pass_or_swine_align(score, opponent_score):
    """fa20: an extra turn by Pig Pass or by Swine Align."""
    return pig_pass(score, opponent_score) | swine_align(score, opponent_score)


@named("More Boar")
def extra_more_boar(score, opponent_score):
    """sp21 More Boar: an extra turn when the mover's two leading digits are both smaller than
    the opponent's (a one-digit score reads as 0x)."""
    def leading_two(x):
        x = np.asarray(x)
        top = x // 10 ** np.maximum(_digit_count(x) - 2, 0)  # the two leading digits (or 0x)
        return top // 10, top % 10
    a1, a2 = leading_two(score)
    b1, b2 = leading_two(opponent_score)
    return _as_result((a1 < b1) & (a2 < b2))


#: The name of each kind of rule where neither the ruleset (``Ruleset.names``) nor the
#: component (:func:`named`) gives one.
RULE_NAMES: Dict[str, str] = {
    "pig_out": "Pig Out", "free_bacon": "Free Bacon", "dice_sides": "Hog Wild", "swaps": "Swine Swap",
    "piggy_back": "Piggy Back", "history": "Feral Hogs", "turn_score": "Turn score rule",
    "bonus": "Bonus", "extra_turn": "Extra turn", "points_bonus": "Points bonus",
}


def moves_again(rules: "Ruleset", score, opponent_score):
    """True where the mover keeps the move after ending a turn on (score, opponent_score)."""
    return call_rule(rules.extra_turn, score, opponent_score)


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
        """Bonus points of rolling ``num_dice`` after ``previous`` (ints or arrays)."""
        hit = abs(np.asarray(num_dice) - np.asarray(previous)) == self.gap
        return _as_result(np.where(hit, self.bonus, 0))

    def remembered(self, num_dice, points):
        """What the mover remembers of this turn."""
        return num_dice if self.remembers == "dice" else points

    def size(self, max_dice: int) -> int:
        """How many remembered values behave differently."""
        return max_dice + 1 if self.remembers == "dice" else max_dice + self.gap + 2

    def index(self, value, max_dice: int):
        """The remembered value as an index below :meth:`size`."""
        return np.minimum(value, self.size(max_dice) - 1)


FERAL_HOGS_DICE = FeralHogs("feral_hogs_dice", "dice")
FERAL_HOGS_POINTS = FeralHogs("feral_hogs_points", "points")


# ------------------------------------------------------------ dice sides ----
# A dice-sides rule is called on the scores *before* the turn.

def six_sided(score, opponent_score):
    """Ordinary six-sided dice in every state."""
    return 6


def hog_wild(score, opponent_score):
    """fa13/fa14 Hog Wild: four-sided dice when the score sum is a multiple of 7 (0 too)."""
    return 6 - 2 * ((score + opponent_score) % 7 == 0)


# ---------------------------------------------------------- turn helpers ----

def roll_points(outcomes: Sequence[int], pig_out: int = 1, pig_out_rule=None) -> int:
    """Points of one roll: if any die shows 1 (Pig Out), ``pig_out`` or
    ``pig_out_rule(number of 1s, number of dice)``; else the sum."""
    outcomes = list(outcomes)
    if 1 not in outcomes:
        return sum(outcomes)
    return int(pig_out_rule(outcomes.count(1), len(outcomes))) if pig_out_rule is not None else pig_out


def turn_points(rules: "Ruleset", raw_points, num_dice):
    """A turn's points after the ruleset's turn-score rule (Hogtimus Prime, ...)."""
    return call_rule(rules.turn_score, raw_points, num_dice)


def call_rule(rule, *args):
    """Call a rule component on ints or arrays.

    On arrays the result is broadcast to the arguments' shape; a component
    written for plain ints only is then called element by element.
    """
    if all(type(a) is int for a in args):  # the engine's plain ints: the common case, kept fast
        return rule(*args)
    if all(np.ndim(a) == 0 for a in args):
        return rule(*(int(a) for a in args))
    shape = np.broadcast_shapes(*(np.shape(a) for a in args))
    try:
        return np.broadcast_to(np.asarray(rule(*args)), shape)
    except Exception:  # a component written for plain ints only
        one = np.vectorize(lambda *xs: rule(*(int(x) for x in xs)), otypes=[np.int64])
        return one(*args)


@dataclasses.dataclass(frozen=True)
class EndOfTurn:
    """The after-turn rules of one turn, step by step (ints, or numpy arrays element-wise):
    the points bonus's extras (sp15), the mover's bonus (Hog Pile, ...), whether the swap
    fired, and the scores (mover, opponent) it ends on."""

    mover_extra: Any
    opponent_extra: Any
    bonus: Any
    swapped: Any
    mover: Any
    opponent: Any


def end_of_turn_steps(rules: "Ruleset", score, opponent_score, points) -> EndOfTurn:
    """Add ``points`` to ``score``, then the points bonus, the bonus and the swap test (once):
    the one definition of their order, for the engine's events and every solver alike."""
    new = score + points
    mover_extra, opponent_extra = 0 * new, 0 * new
    if rules.points_bonus is not None:
        mover_extra, opponent_extra = rules.points_bonus(new, opponent_score, points)
        new, opponent_score = new + mover_extra, opponent_score + opponent_extra
    bonus = call_rule(rules.bonus, new, opponent_score)
    new = new + bonus
    swap = call_rule(rules.swaps, new, opponent_score)
    if np.ndim(swap) == 0:
        swap = bool(swap)
        mover, opponent = (opponent_score, new) if swap else (new, opponent_score)
    else:
        swap = swap.astype(bool)
        mover, opponent = np.where(swap, opponent_score, new), np.where(swap, new, opponent_score)
    return EndOfTurn(mover_extra, opponent_extra, bonus, swap, mover, opponent)


def end_of_turn_and_swap(rules: "Ruleset", score, opponent_score, points):
    """``(mover, opponent, swapped)`` after adding ``points`` and applying the swap rule.

    The swap test runs once; works on ints and, element-wise, on numpy arrays.
    """
    steps = end_of_turn_steps(rules, score, opponent_score, points)
    return steps.mover, steps.opponent, steps.swapped


def end_of_turn(rules: "Ruleset", score, opponent_score, points):
    """Scores (mover, opponent) after adding ``points`` and applying the swap rule."""
    mover, opponent, _ = end_of_turn_and_swap(rules, score, opponent_score, points)
    return mover, opponent


# ------------------------------------------------------------ legal moves ---
# A move is a dice count from 0 to max_dice; strategies are asked for one.

class StrategyError(HogsolveError, ValueError):
    """A strategy returned an invalid dice count, changed its mind, or raised."""


def strategy_name(strategy) -> str:
    """A strategy's name; "table" for a bare policy array."""
    if isinstance(strategy, np.ndarray):
        return "table"
    return getattr(strategy, "name", None) or getattr(strategy, "__name__", None) or repr(strategy)


def valid_choice(choice, max_dice: int, min_dice: int = 0) -> bool:
    """True for an int (not bool) or numpy integer from ``min_dice`` to ``max_dice``."""
    if type(choice) is int:  # the common case, checked first: a plain int (bool is its own type)
        return min_dice <= choice <= max_dice
    return (not isinstance(choice, (bool, np.bool_)) and isinstance(choice, (int, np.integer))
            and min_dice <= choice <= max_dice)


def checked_choice(strategy, score: int, opponent_score: int, max_dice: int, context: Tuple[int, ...] = (),
                   min_dice: int = 0) -> int:
    """Ask ``strategy`` for its dice count at one state (``context``: extra state such as
    both players' memories, passed on only when given), validating the answer.  The
    strategy's name is only worked out for an error message (it costs more than the call)."""
    try:
        choice = strategy(score, opponent_score, *context)
        if type(choice) is int and min_dice <= choice <= max_dice:  # the common case, without a call
            return choice
    except Exception as exc:
        raise StrategyError(
            f"strategy {strategy_name(strategy)} raised {type(exc).__name__}: {exc} "
            f"at score {score}, opponent score {opponent_score}") from exc
    if not valid_choice(choice, max_dice, min_dice):
        raise StrategyError(
            f"strategy {strategy_name(strategy)} returned {choice!r} at score {score}, opponent score "
            f"{opponent_score}; expected an int from {min_dice} to {max_dice}")
    return int(choice)


# --------------------------------------------------------------- Ruleset ----

#: What an endless game is worth (:attr:`Ruleset.endless`): nothing agreed, or half a win each.
ENDLESS = ("none", "draw")


@dataclasses.dataclass(frozen=True)
class Ruleset:
    """A Hog ruleset: rule components plus goal and max_dice.

    Components should accept numpy arrays as well as ints; one that does not
    still works (the model then calls it state by state).

    Parameters
    ----------
    name, description : str
        Short name and one-line description.
    free_bacon : callable ``(opponent_score) -> points``
        Points for rolling zero dice (``(score, opponent_score)`` when marked
        with :func:`both_scores`).
    swaps : callable ``(score, opponent_score) -> bool``
        Swine Swap test, on the mover's new score and the opponent's score.
    bonus : callable ``(score, opponent_score) -> points``
        Extra points for the mover after the turn's points are added and before
        the swap test (Hog Pile, Pigs on Prime, ...); never negative.
    extra_turn : callable ``(score, opponent_score) -> bool``
        After the turn (bonus and swap applied), whether the mover moves again.
    pig_out_rule : callable ``(number of 1s, number of dice) -> points`` or None
        When given, the points of a Pig Out instead of the constant ``pig_out``.
    turn_score : callable ``(points, number of dice) -> points``
        Changes a turn's points, zero dice included (Hogtimus Prime).
    points_bonus : callable ``(score, opponent_score, points) -> (mover's extra, opponent's extra)``
        or None: a change after the turn that depends on its points (sp15's
        Hogtimus Prime); applied first, before the bonus and swap rules.
    history : FeralHogs or None
        A bonus that depends on each player's previous turn (Feral Hogs); the
        state then includes what each player remembers.
    piggy_back : bool
        fa15/sp16 Piggy Back: when a roll of dice scores 0, the opponent gains
        as many points as dice were rolled (before the swap test).
    dice_sides : callable ``(score, opponent_score) -> sides``
        Sides of the dice for a turn, from the scores before the turn.
    pig_out : int
        Points of a turn in which any die shows 1.
    goal, max_dice : int
        Score that ends the game; most dice a player may roll.
    names : tuple of (field, name) pairs
        The course's names for this ruleset's rules where they differ from the component's
        or the usual one (``("free_bacon", "Boar Brawl")``): what the game logs show.
    endless : str
        What a game that never ends is worth: ``"none"`` (nothing is agreed: where optimal
        players would pass forever the game has no value, as in sp22) or ``"draw"`` (half a
        win for each).
    min_dice : int
        Fewest dice a player may roll: 0 (zero dice is a move) or 1 (it is not,
        as in Neller's Hog).
    """

    name: str
    description: str
    free_bacon: Callable
    swaps: Callable = never_swap
    dice_sides: Callable = six_sided
    pig_out: int = 1
    goal: int = 100
    max_dice: int = 10
    bonus: Callable = no_bonus
    extra_turn: Callable = no_extra_turn
    pig_out_rule: Optional[Callable] = None
    turn_score: Callable = same_score
    piggy_back: bool = False
    history: Optional[FeralHogs] = None
    points_bonus: Optional[Callable] = None
    min_dice: int = 0
    endless: str = "none"
    names: Tuple[Tuple[str, str], ...] = ()

    def __post_init__(self):
        for field in ("goal", "max_dice", "pig_out", "min_dice"):
            value = getattr(self, field)
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
                raise TypeError(f"{field} must be an int, got {value!r}")
        if self.goal < 1:
            raise ValueError(f"goal must be at least 1, got {self.goal}")
        if not 1 <= self.max_dice <= 20:
            raise ValueError(f"max_dice must be from 1 to 20, got {self.max_dice}")
        if not all(isinstance(pair, tuple) and len(pair) == 2 and pair[0] in RULE_NAMES and isinstance(pair[1], str)
                   for pair in self.names):
            raise TypeError(f"names must be (rule kind, name) pairs of {', '.join(RULE_NAMES)}, got {self.names!r}")
        object.__setattr__(self, "names", tuple(sorted(self.names)))  # one order: equal rulesets compare equal
        if self.min_dice not in (0, 1):
            raise ValueError(f"min_dice must be 0 or 1, got {self.min_dice}")
        if self.endless not in ENDLESS:
            raise ValueError(f"endless must be one of {', '.join(ENDLESS)}, got {self.endless!r}")
        if self.pig_out < 0:
            raise ValueError(f"pig_out must be at least 0, got {self.pig_out}")
        if not isinstance(self.piggy_back, bool):
            raise TypeError(f"piggy_back must be True or False, got {self.piggy_back!r}")
        if self.piggy_back and (self.bonus is not no_bonus or self.extra_turn is not no_extra_turn):
            raise ValueError("piggy_back does not combine with bonus or extra-turn rules")
        if self.history is not None:
            if not isinstance(self.history, FeralHogs):
                raise TypeError(f"history must be a FeralHogs rule or None, got {self.history!r}")
            if self.piggy_back or self.extra_turn is not no_extra_turn:
                raise ValueError("a history rule does not combine with piggy_back or extra-turn rules")
        if self.points_bonus is not None and (self.piggy_back or self.history is not None
                                              or self.extra_turn is not no_extra_turn):
            raise ValueError("points_bonus does not combine with piggy_back, history or extra-turn rules")

    #: A fixed strategy to measure agents against (what ``evaluate_agent`` compares with).
    baseline = "always_roll:4"

    @property
    def context_shape(self) -> Tuple[int, ...]:
        """Extra state beyond (score, opponent_score): (mover's memory, opponent's memory)
        under a history rule, else ()."""
        if self.history is None:
            return ()
        size = self.history.size(int(self.max_dice))
        return (size, size)

    def context_index(self, context: Sequence[int] = ()) -> Tuple[int, ...]:
        """Table indices of a state's context: (my memory, the opponent's memory) under a
        history rule, capped as :meth:`FeralHogs.index` does, 0 where not given; else ()."""
        if self.history is None:
            return ()
        given = tuple(int(self.history.index(int(c), int(self.max_dice))) for c in context)
        return (given + (0, 0))[:2]

    def rule_name(self, kind: str) -> str:
        """The name this ruleset's course gave the rule ``kind`` (a field: ``free_bacon``,
        ``bonus``, ...): the ruleset's own ``names``, else the component's, else the usual one."""
        own = dict(self.names)
        if kind in own:
            return own[kind]
        component = getattr(self, kind, None)
        return (getattr(component, "rule_name", None) if callable(component) else None) or RULE_NAMES[kind]

    def extra_turn_name(self, score: int, opponent_score: int) -> str:
        """The name of the extra-turn rule that fired at (score, opponent_score): the parts
        that hold (fa20's Pig Pass, Swine Align), else the rule's name."""
        parts = getattr(self.extra_turn, "rule_parts", ())
        held = [name for name, test in parts if bool(test(score, opponent_score))]
        return " and ".join(held) if held else self.rule_name("extra_turn")

    def replace(self, **changes) -> "Ruleset":
        """A copy with some fields changed, e.g. ``rules.replace(goal=30)``."""
        return dataclasses.replace(self, **changes)

    def summary(self) -> Dict[str, object]:
        """Plain description for files and --json output."""
        return {
            "name": self.name,
            "description": self.description,
            "goal": int(self.goal),
            "max_dice": int(self.max_dice),
            "pig_out": int(self.pig_out),
            "free_bacon": getattr(self.free_bacon, "__name__", repr(self.free_bacon)),
            "swaps": getattr(self.swaps, "__name__", repr(self.swaps)),
            "dice_sides": getattr(self.dice_sides, "__name__", repr(self.dice_sides)),
            # the later components only when set, so older tables keep their summary
            **{field: getattr(rule, "__name__", repr(rule)) for field, default in OPTIONAL_RULES.items()
               if (rule := getattr(self, field)) is not default},
            **({"piggy_back": True} if self.piggy_back else {}),
            **({"min_dice": int(self.min_dice)} if self.min_dice else {}),
            **({"endless": self.endless} if self.endless != "none" else {}),
        }


_BUILTIN: Tuple[Ruleset, ...] = (  # in the order the course used them
    Ruleset(
        "fa13",
        "CS 61A Fall 2013: Free Bacon 1 + larger digit; Hog Wild four-sided dice "
        "when the score sum is a multiple of 7; swap when one score doubles the other",
        free_bacon=bacon_larger_digit,
        swaps=swap_double,
        dice_sides=hog_wild,
    ),
    Ruleset(
        "fa14",
        "CS 61A Fall 2014: as fa13 but Free Bacon 1 + |tens - ones|",
        free_bacon=bacon_digit_difference,
        swaps=swap_double,
        dice_sides=hog_wild,
    ),
    Ruleset(
        "sp15",
        "CS 61A Spring 2015: Free Bacon 1 + larger digit; Hog Wild four-sided dice when the score "
        "sum is a multiple of 7; Hogtimus Prime: when the scores differ and their sum is prime, "
        "the leader gains the turn's points again",
        free_bacon=bacon_larger_digit,
        dice_sides=hog_wild,
        points_bonus=prime_sum_leader_gains,
    ),
    Ruleset(
        "su15",
        "CS 61A Summer 2015: Free Bacon 1 + larger digit; Hog Wild four-sided dice when the score "
        "sum is a multiple of 7; swap when the last two digits of one score reverse the other's",
        free_bacon=bacon_larger_digit,
        swaps=swap_reversed_digits,
        dice_sides=hog_wild,
    ),
    Ruleset(
        "fa15",
        "CS 61A Fall 2015 and Spring 2016: Pig Out scores 0 and the opponent gains the dice rolled "
        "(Piggy Back); Hogtimus Prime: a prime turn score becomes the next prime; Free Bacon 1 + "
        "larger digit; Hog Wild; swap when the last two digits of one score reverse the other's",
        free_bacon=bacon_larger_digit,
        swaps=swap_reversed_digits,
        dice_sides=hog_wild,
        pig_out=0,
        turn_score=hogtimus_prime,
        piggy_back=True,
    ),
    Ruleset(
        "sp17",
        "CS 61A Spring 2017: Pig Out scores the number of 1s (at most 11 - dice); Hogtimus Prime: "
        "a prime turn score becomes the next prime; Free Bacon 1 + larger digit; Hog Wild; swap "
        "when one score doubles the other",
        free_bacon=bacon_larger_digit,
        swaps=swap_double,
        dice_sides=hog_wild,
        pig_out_rule=ones_capped,
        turn_score=hogtimus_prime,
    ),
    Ruleset(
        "fa17",
        "CS 61A Fall 2017: Free Bacon 1 + larger digit; swap when both scores exceed 1 and one "
        "is a multiple of the other",
        free_bacon=bacon_larger_digit,
        swaps=swap_multiple,
    ),
    Ruleset(
        "sp18",
        "CS 61A Spring 2018: Free Bacon 2 + |tens - ones|; swap when both scores exceed 1 and "
        "one is a multiple of the other",
        free_bacon=bacon_two_plus_digit_difference,
        swaps=swap_multiple,
    ),
    Ruleset(
        "su18",
        "CS 61A Summer 2018: Free Bacon 1 + last digit of tens x ones; "
        "swap when mover's ones digit = opponent's tens digit",
        free_bacon=bacon_product_digit,
        swaps=swap_ones_equals_tens,
    ),
    Ruleset(
        "fa18",
        "CS 61A Fall 2018: Free Bacon max(2 x tens - ones, 1); "
        "swap when both scores have the same |tens - ones|",
        free_bacon=bacon_twice_tens_minus_ones,
        swaps=swap_equal_digit_gaps,
    ),
    Ruleset(
        "su19",
        "CS 61A Summer 2019: Free Bacon 10 - smaller digit; swap when the mover's leftmost digit "
        "equals the opponent's last digit",
        free_bacon=bacon_ten_minus_smaller_digit,
        swaps=swap_leading_equals_last,
    ),
    Ruleset(
        "fa19",
        "CS 61A Fall 2019: Free Bacon 10 - smaller digit; Feral Hogs: +3 when the dice rolled "
        "differ by exactly 2 from the mover's previous dice count; swap when leftmost x last "
        "digit is equal for both scores",
        free_bacon=bacon_ten_minus_smaller_digit,
        swaps=swap_leading_times_last,
        history=FERAL_HOGS_DICE,
    ),
    Ruleset(
        "sp20",
        "CS 61A Spring 2020: Free Bacon 1 + |alternating digit sum of the opponent's score cubed|; "
        "Feral Hogs: +3 when the dice rolled differ by exactly 2 from the mover's previous turn's "
        "points; swap when 3 ** (score sum) starts and ends with the same digit",
        free_bacon=bacon_cube_alternating_digits,
        swaps=swap_three_power_ends,
        history=FERAL_HOGS_POINTS,
    ),
    Ruleset(
        "su20",
        "CS 61A Summer 2020: Free Bacon 10 - ones + tens; Feral Hogs as sp20; swap when the "
        "ones digits differ by the opponent's tens digit",
        free_bacon=bacon_ten_minus_ones_plus_tens,
        swaps=swap_ones_gap_is_tens,
        history=FERAL_HOGS_POINTS,
    ),
    Ruleset(
        "fa20",
        "CS 61A Fall 2020: Free Bacon 3 + the n-th digit of pi (n = opponent's score); an extra "
        "turn after trailing by 1 or 2 (Pig Pass) or when both scores share a factor of 10 or "
        "more (Swine Align)",
        free_bacon=bacon_pi_digit,
        extra_turn=extra_pig_pass_or_swine_align,
    ),
    Ruleset(
        "sp21",
        "CS 61A Spring 2021: Piggy Points 3 + smallest digit of the opponent's score squared; "
        "More Boar: an extra turn when both of the mover's leading digits are below the opponent's",
        free_bacon=bacon_smallest_square_digit,
        extra_turn=extra_more_boar,
        names=(("free_bacon", "Piggy Points"),),
    ),
    Ruleset(
        "fa21",
        "CS 61A Fall 2021: Picky Piggy (zero dice score the n-th digit of 1/7, n = opponent's "
        "score; 7 at 0); Hog Pile: landing on the opponent's score adds it again",
        free_bacon=bacon_one_seventh_digit,
        bonus=bonus_hog_pile_equal,
        names=(("free_bacon", "Picky Piggy"),),
    ),
    Ruleset(
        "sp22",
        "CS 61A Spring 2022: Hefty Hogs (zero dice fold digit functions over the opponent's "
        "digits, starting from the mover's score, mod 30: can score 0); Hog Pile: a new score "
        "ending in the opponent's ones digit gains that digit",
        free_bacon=bacon_hefty_hogs,
        bonus=bonus_hog_pile_ones,
        names=(("free_bacon", "Hefty Hogs"), ("pig_out", "Sow Sad")),
    ),
    Ruleset(
        "su22",
        "CS 61A Summer 2022: Oink Points max(2 x tens - ones, 1); Pigs on Prime: a prime new "
        "score (1 counts) rises to the next prime",
        free_bacon=bacon_twice_tens_minus_ones,
        bonus=bonus_pigs_on_prime,
        names=(("free_bacon", "Oink Points"), ("pig_out", "Sow Sad")),
    ),
    Ruleset(
        "fa22",
        "CS 61A Fall 2022 and Spring 2023: Pig Tail 2 |tens - ones| + 1; Square Swine: a "
        "perfect-square new score becomes the next perfect square",
        free_bacon=bacon_pig_tail,
        bonus=bonus_square_swine,
        names=(("free_bacon", "Pig Tail"), ("pig_out", "Sow Sad")),
    ),
    Ruleset(
        "fa23",
        "CS 61A Fall 2023 onward: Boar Brawl max(3 |opponent's tens - mover's ones|, 1); "
        "Sus Fuss: a new score with 3 or 4 factors becomes the next prime",
        free_bacon=bacon_boar_brawl,
        bonus=bonus_sus_fuss,
        names=(("free_bacon", "Boar Brawl"), ("pig_out", "Sow Sad")),
    ),
    Ruleset(
        "hog",
        "Neller & Presser's Hog (not CS 61A's): choose 1 to 10 dice once per turn; any 1 scores 0; "
        "no zero-dice move",
        free_bacon=bacon_not_a_move,
        pig_out=0,
        min_dice=1,
    ),
)

#: Details that rest on inference from the official examples rather than on the course's text.
INFERRED: Dict[str, str] = {
    "fa13": "the fa13 and su14 rules are assumed to be sp14's (sp14 is the confirmed source)",
    "sp15": "Hogtimus Prime's wording is a student's docstring; this reading (the leader, whoever "
            "moved, gains the turn's points) is the one the four official play() results fit",
    "sp18": "Free Bacon 2 + |tens - ones| is inferred from the official free_bacon examples",
    "su19": "the swap rule is inferred from the official is_swap examples",
    "fa19": "Feral Hogs counts the dice rolled, as the official traced games fit (the official play() "
            "examples run with feral_hogs=False)",
    "sp20": "Feral Hogs counts the points scored (bonus excluded), as the official games fit",
    "su20": "Free Bacon and the swap rule are inferred from the official examples; Feral Hogs as sp20",
    "sp22": "Hefty Hogs reads an opponent's score of 0 as one digit 0 (no official example decides it)",
    "su22": "Pigs on Prime treats a new score of 1 as prime, as the official games require",
    "fa15": "Piggy Back (named on the sp16 contest page) applies before the swap test; the official "
            "play() examples only finish with it",
    "fa23": "fa23 rules also for sp24 to fa25, and for su23 from a course helper page; sp25 is not "
            "confirmed and not aliased",
}

#: The words of every refusal because of an endless game (the same in every verb).
ENDLESS_GAME = "an endless game has no agreed value (--endless draw counts it as half a win for each)"

#: Built-in rulesets whose optimal play has no value, and why (``solve --all`` skips them;
#: they still play, simulate and evaluate fixed strategies).
NO_VALUE: Dict[str, str] = {
    "sp22": "at (72, 75) and (75, 72) zero dice score 0 for either player and each prefers passing to "
            "rolling, so optimal players pass forever: the game has no value (hogsolve solve explains; "
            "--endless draw counts an endless game as half a win for each, and then it has one)",
}

#: Semesters of the course's rule history that are not built in, and why.
NOT_BUILT_IN: Dict[str, str] = {
    "fa16": "Pork Chop (roll -1 dice to swap six- and four-sided dice for the rest of the game) and the "
            "order of When Pigs Fly's cap are uncertain, and no official example settles them",
}

#: Semesters whose rules are another semester's (hogsolve's fa13 is the sp14 ruleset).
ALIASES: Dict[str, str] = {
    "sp14": "fa13", "su14": "fa13", "sp16": "fa15", "sp23": "fa22", "su23": "fa23",
    "sp24": "fa23", "su24": "fa23", "fa24": "fa23", "su25": "fa23", "fa25": "fa23",
}


#: Components a summary names only when they differ from these defaults.
OPTIONAL_RULES = {"bonus": no_bonus, "extra_turn": no_extra_turn, "pig_out_rule": None, "turn_score": same_score,
                  "history": None, "points_bonus": None}


class UnknownRulesetError(HogsolveError, ValueError):
    """Raised for a ruleset name that is not built in."""


def rulesets() -> Dict[str, Ruleset]:
    """The built-in rulesets by name, in a stable order."""
    return {rules.name: rules for rules in _BUILTIN}


def semesters(name: str) -> Tuple[str, ...]:
    """Every semester label that names the built-in ruleset ``name`` (itself first)."""
    return (name,) + tuple(alias for alias, target in ALIASES.items() if target == name)


def get_rules(name: str, goal: int | None = None) -> Ruleset:
    """A built-in ruleset by name or semester label (any case: ``SU18`` is ``su18``),
    optionally with another goal."""
    known = rulesets()
    name = name.lower() if isinstance(name, str) else name
    name = ALIASES.get(name, name)
    if name in NOT_BUILT_IN:
        raise UnknownRulesetError(f"{name} is not built in: {NOT_BUILT_IN[name]}")
    if name not in known:
        raise UnknownRulesetError(
            f"unknown ruleset {name!r}; choose from {', '.join(known)} (or the semesters "
            f"{', '.join(ALIASES)})")
    rules = known[name]
    return rules if goal is None else rules.replace(goal=goal)
