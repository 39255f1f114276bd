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

This module is the one import for all of it; each part has its own module:
:mod:`.bacon` (zero dice and the digit helpers), :mod:`.components` (swaps,
bonuses, turn-score and extra-turn rules, memories, dice sides), :mod:`.turn`
(one turn's points and its end), :mod:`.checks` (what a strategy may answer),
:mod:`.ruleset` (:class:`Ruleset`) and :mod:`.catalog` (the built-in rulesets).

>>> su18 = get_rules("su18")
>>> su18.free_bacon(46), su18.free_bacon(28), su18.free_bacon(5)
(5, 7, 1)
>>> bool(su18.swaps(49, 92)), bool(su18.swaps(111, 12)), bool(su18.swaps(43, 5))
(True, True, False)
"""
from __future__ import annotations

from .bacon import (  # noqa: F401
    ONE_SEVENTH_DIGITS, PI_DIGITS, as_result, digit_count, table_rule, table_size, bacon_boar_brawl,
    bacon_cube_alternating_digits, bacon_digit_difference, bacon_hefty_hogs, bacon_larger_digit, bacon_not_a_move,
    bacon_one_seventh_digit, bacon_pi_digit, bacon_pig_tail, bacon_product_digit, bacon_smallest_square_digit,
    bacon_ten_minus_ones_plus_tens, bacon_ten_minus_smaller_digit, bacon_twice_tens_minus_ones,
    bacon_two_plus_digit_difference, both_scores, ones, tens
)
from .components import (  # noqa: F401
    FERAL_HOGS_DICE, FERAL_HOGS_POINTS, FeralHogs, RULE_NAMES, bonus_hog_pile_equal, bonus_hog_pile_ones,
    bonus_pigs_on_prime, bonus_square_swine, bonus_sus_fuss, extra_more_boar, extra_pig_pass_or_swine_align, hog_wild,
    hogtimus_prime, leading_digit, named, never_swap, no_bonus, no_extra_turn, ones_capped, pig_pass,
    prime_sum_leader_gains, same_score, six_sided, swap_double, swap_equal_digit_gaps, swap_leading_equals_last,
    swap_leading_times_last, swap_multiple, swap_ones_equals_tens, swap_ones_gap_is_tens, swap_reversed_digits,
    swap_three_power_ends, swine_align
)
from .turn import (  # noqa: F401
    EndOfTurn, call_rule, end_of_turn, end_of_turn_and_swap, end_of_turn_steps, moves_again, points_counts, roll_points,
    turn_points, zero_dice_points
)
from .checks import StrategyError, checked_choice, strategy_name, valid_choice  # noqa: F401
from .ruleset import ENDLESS, OPTIONAL_RULES, Ruleset  # noqa: F401
from .catalog import (  # noqa: F401
    ALIASES, ENDLESS_GAME, INFERRED, NOT_BUILT_IN, NO_VALUE, UnknownRulesetError, get_rules, rulesets, semesters
)
