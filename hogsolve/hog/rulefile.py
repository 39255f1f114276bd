"""Rulesets as data: TOML files naming the rule components, read and written.

A rule file names a ruleset and picks each rule from the components that
the built-in rulesets use::

    name = "mine"
    description = "fa22's zero-dice rule with fa13's swap, to 50"
    goal = 50
    max_dice = 10
    pig_out = 1
    free_bacon = "bacon_pig_tail"
    swaps = "swap_double"
    dice_sides = "six_sided"
    bonus = "no_bonus"
    extra_turn = "no_extra_turn"

An optional table names the rules as the game logs should (the usual names are Pig Out,
Free Bacon, Swine Swap, ...)::

    [names]
    free_bacon = "Pig Tail"
    pig_out = "Sow Sad"

Only ``name`` and ``free_bacon`` are required.  Unknown keys or components,
wrong types and out-of-range values are refused with the file, the key and
the reason (:class:`RuleFileError`).  Python's ``tomllib`` reads the files;
:func:`to_toml` writes them, and every built-in ruleset round-trips.
"""
from __future__ import annotations

from ..errors import HogsolveError, InputError
import tomllib
from pathlib import Path
from typing import Any, Callable, Dict, Optional

from . import rules as r
from .rules import Ruleset, get_rules
from ..util.files import read_text_file

#: Every named component, by the Ruleset field it fills.
COMPONENTS: Dict[str, Dict[str, Callable]] = {
    "free_bacon": {f.__name__: f for f in (
        r.bacon_larger_digit, r.bacon_digit_difference, r.bacon_product_digit, r.bacon_twice_tens_minus_ones,
        r.bacon_two_plus_digit_difference, r.bacon_ten_minus_smaller_digit, r.bacon_one_seventh_digit,
        r.bacon_pig_tail, r.bacon_boar_brawl, r.bacon_pi_digit, r.bacon_smallest_square_digit,
        r.bacon_cube_alternating_digits, r.bacon_ten_minus_ones_plus_tens, r.bacon_hefty_hogs,
        r.bacon_not_a_move)},
    "swaps": {f.__name__: f for f in (
        r.never_swap, r.swap_double, r.swap_ones_equals_tens, r.swap_equal_digit_gaps, r.swap_reversed_digits,
        r.swap_multiple, r.swap_leading_equals_last, r.swap_leading_times_last, r.swap_three_power_ends,
        r.swap_ones_gap_is_tens)},
    "dice_sides": {f.__name__: f for f in (r.six_sided, r.hog_wild)},
    "bonus": {f.__name__: f for f in (
        r.no_bonus, r.bonus_hog_pile_equal, r.bonus_pigs_on_prime, r.bonus_square_swine, r.bonus_sus_fuss,
        r.bonus_hog_pile_ones)},
    "extra_turn": {f.__name__: f for f in (r.no_extra_turn, r.extra_pig_pass_or_swine_align, r.extra_more_boar)},
    "turn_score": {f.__name__: f for f in (r.same_score, r.hogtimus_prime)},
}
#: Optional components: absent means none (the constant ``pig_out`` is used).
OPTIONAL: Dict[str, Dict[str, Any]] = {"pig_out_rule": {f.__name__: f for f in (r.ones_capped,)},
                                     "history": {f.__name__: f for f in (r.FERAL_HOGS_DICE, r.FERAL_HOGS_POINTS)},
                                     "points_bonus": {f.__name__: f for f in (r.prime_sum_leader_gains,)}}
TEXT_FIELDS = ("name", "description")
TEXT_LIMITS = {"name": 200, "description": 400}
INT_FIELDS = ("goal", "max_dice", "pig_out", "min_dice")
BOOL_FIELDS = ("piggy_back",)
KEYS = TEXT_FIELDS + INT_FIELDS + BOOL_FIELDS + tuple(COMPONENTS) + tuple(OPTIONAL) + ("names",)


class RuleFileError(HogsolveError, ValueError):
    """A rule file that cannot be read: one line per problem, each naming the file, the key
    and the reason (``problems`` lists them)."""

    def __init__(self, message: str, problems=None):
        super().__init__(message)
        self.problems = list(problems or [message])


def from_dict(data: dict, source: str = "<rules>") -> Ruleset:
    """A :class:`Ruleset` from the parsed contents of a rule file; every problem is found
    before any is reported, one line each (``RuleFileError.problems``)."""
    if not isinstance(data, dict):
        raise RuleFileError(f"{source}: expected a table of keys")
    problems = []

    def bad(key, why):
        problems.append(f"{source}: {key}: {why}")

    for key in data:
        if key not in KEYS:
            bad(key, f"unknown key; expected {', '.join(KEYS)}")
    for key in ("name", "free_bacon"):
        if key not in data:
            bad(key, "missing (required)")
    fields = {}
    for key in TEXT_FIELDS:
        if key in data:
            if not isinstance(data[key], str) or not data[key].strip():
                bad(key, f"expected a non-empty string, got {data[key]!r}")
            elif not data[key].isprintable() or len(data[key]) > TEXT_LIMITS[key]:
                # printed in terminals, logs and pages: no line breaks, control or direction characters
                bad(key, f"expected printable text of at most {TEXT_LIMITS[key]} characters on one line "
                         f"(no control or direction characters), got {ascii(data[key][:40])}")
            else:
                fields[key] = data[key]
    for key in INT_FIELDS:
        if key in data:
            if isinstance(data[key], bool) or not isinstance(data[key], int):
                bad(key, f"expected a whole number, got {data[key]!r}")
            else:
                fields[key] = data[key]
    for key in BOOL_FIELDS:
        if key in data:
            if not isinstance(data[key], bool):
                bad(key, f"expected true or false, got {data[key]!r}")
            else:
                fields[key] = data[key]
    components: Dict[str, Dict[str, Any]] = {**COMPONENTS, **OPTIONAL}
    for key, choices in components.items():
        if key in data:
            if not isinstance(data[key], str) or data[key] not in choices:
                bad(key, f"unknown component {data[key]!r}; choose from {', '.join(choices)}")
            else:
                fields[key] = choices[data[key]]
    if "names" in data:
        names = data["names"]
        if not isinstance(names, dict) or any(kind not in r.RULE_NAMES for kind in names) or any(
                not isinstance(v, str) or not v.strip() or not v.isprintable() or len(v) > 60 for v in names.values()):
            bad("names", f"expected a table of rule kinds ({', '.join(r.RULE_NAMES)}) to printable names "
                         f"of at most 60 characters, got {ascii(names)[:80]}")
        else:
            fields["names"] = tuple(sorted(names.items()))
    if problems:
        raise RuleFileError("\n".join(problems), problems)
    fields.setdefault("description", f"{fields['name']} (from a rule file)")
    try:
        return Ruleset(**fields)
    except (TypeError, ValueError) as exc:
        field = next((k for k in INT_FIELDS if k in str(exc)), "ruleset")
        raise RuleFileError(f"{source}: {field}: {exc}") from None


def load_rules_file(path) -> Ruleset:
    """Read a TOML rule file (see the module docstring)."""
    path = Path(path)
    try:
        text = read_text_file(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleFileError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleFileError(f"{path}: not valid TOML: {exc}") from None
    return from_dict(data, str(path))


def component_name(rules: Ruleset, key: str) -> str:
    """The registered name of one of ``rules``' components (ValueError for an unnamed one)."""
    function = getattr(rules, key)
    components: Dict[str, Dict[str, Any]] = {**COMPONENTS, **OPTIONAL}
    for name, candidate in components[key].items():
        if candidate is function:
            return name
    raise InputError(f"{rules.name}: its {key} rule is not a named component, so it has no rule file")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_toml(rules: Ruleset) -> str:
    """``rules`` as a rule file that :func:`load_rules_file` reads back to an equal Ruleset."""
    lines = [f"name = {_quote(rules.name)}", f"description = {_quote(rules.description)}"]
    lines += [f"{key} = {int(getattr(rules, key))}" for key in INT_FIELDS if key != "min_dice" or rules.min_dice]
    lines += [f"{key} = {'true' if getattr(rules, key) else 'false'}" for key in BOOL_FIELDS]
    lines += [f"{key} = {_quote(component_name(rules, key))}" for key in COMPONENTS]
    lines += [f"{key} = {_quote(component_name(rules, key))}" for key in OPTIONAL if getattr(rules, key) is not None]
    if rules.names:
        lines += ["", "[names]"] + [f"{kind} = {_quote(name)}" for kind, name in rules.names]
    return "\n".join(lines) + "\n"


def get_rules_or_file(name: str, goal: Optional[int] = None) -> Ruleset:
    """A built-in ruleset by name (as :func:`~hogsolve.hog.rules.get_rules`), or the rule file
    ``name`` when it ends in ``.toml``; at ``goal`` if given."""
    if isinstance(name, str) and name.endswith(".toml"):
        rules = load_rules_file(name)
        return rules if goal is None else rules.replace(goal=goal)
    return get_rules(name, goal)
