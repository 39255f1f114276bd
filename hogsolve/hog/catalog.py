"""The built-in rulesets in the order the course used them, the semesters that share them,
and what is inferred or not built in.
"""
from __future__ import annotations

from typing import Dict, Tuple

from ..errors import HogsolveError
from .bacon import (
    bacon_boar_brawl, bacon_cube_alternating_digits, bacon_digit_difference, bacon_hefty_hogs, bacon_larger_digit,
    bacon_not_a_move, bacon_one_seventh_digit, bacon_pi_digit, bacon_pig_tail, bacon_product_digit,
    bacon_smallest_square_digit, bacon_ten_minus_ones_plus_tens, bacon_ten_minus_smaller_digit,
    bacon_twice_tens_minus_ones, bacon_two_plus_digit_difference
)
from .components import (
    FERAL_HOGS_DICE, FERAL_HOGS_POINTS, bonus_hog_pile_equal, bonus_hog_pile_ones, bonus_pigs_on_prime,
    bonus_square_swine, bonus_sus_fuss, extra_more_boar, extra_pig_pass_or_swine_align, hog_wild, hogtimus_prime,
    ones_capped, prime_sum_leader_gains, swap_double, swap_equal_digit_gaps, swap_leading_equals_last,
    swap_leading_times_last, swap_multiple, swap_ones_equals_tens, swap_ones_gap_is_tens, swap_reversed_digits,
    swap_three_power_ends
)
from .ruleset import Ruleset


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
    "su16": "its Hog Tied rule (at most one die when the score sum ends in 7, seen in a su16 project with its "
            "proj01.ok) limits the dice by the state, which hogsolve's rules cannot express yet",
    "fa16": "Pork Chop (roll -1 dice to swap six- and four-sided dice for the rest of the game) and the "
            "order of When Pigs Fly's cap are uncertain, and no official example settles them",
    "su17": "no official source of its rules was found (no project page or ok tests of that semester)",
    "sp19": "no official source of its rules was found; student projects of 2019 have Time Trot, an extra "
            "turn that depends on the turn number, which hogsolve's game state does not hold",
    "su21": "no official source of its rules was found; student projects of 2021 pair More Boar with Time "
            "Trot, an extra turn that depends on the turn number, which hogsolve's game state does not hold",
    "sp25": "no official source confirms its rules; if they are fa23's (Boar Brawl and Sus Fuss), --rules "
            "fa23 plays them",
}

#: Semesters whose rules are another semester's (hogsolve's fa13 is the sp14 ruleset).
ALIASES: Dict[str, str] = {
    "sp14": "fa13", "su14": "fa13", "sp16": "fa15", "sp23": "fa22", "su23": "fa23",
    "sp24": "fa23", "su24": "fa23", "fa24": "fa23", "su25": "fa23", "fa25": "fa23",
}


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
