"""``hogsolve sibala compare|odds|hand|play``: parse, call, format."""
from __future__ import annotations

import re
from fractions import Fraction

from .common import UsageError, respond, seed_value
from ..sibala.rules import Variant, SibalaError, compare, evaluate

VARIANTS = ("triple-scores", "face-rank")


def parse_dice(text: str):
    """'5354', '5 3 5 4' or '5,3,5,4' -> [5, 3, 5, 4]."""
    digits = re.sub(r"[\s,]+", "", text or "")
    if not digits:
        raise SibalaError("no dice given: write four dice like 5354 or '5 3 5 4'")
    if not (digits.isascii() and digits.isdecimal()):
        raise SibalaError(f"dice must be digits 1 to 6, got {text!r}")
    dice = [int(d) for d in digits]
    if len(dice) != 4:
        raise SibalaError(f"a hand is four dice, got {len(dice)} in {text!r}")
    if any(not 1 <= d <= 6 for d in dice):
        raise SibalaError(f"each die must be from 1 to 6, got {text!r}")
    return dice


def variant_of(args) -> Variant:
    """The Variant named by ``--variant`` options."""
    chosen = set(args.variant or [])
    return Variant(triple_scores="triple-scores" in chosen, face_rank="face-rank" in chosen)


def setup_sibala(parser):
    """``hogsolve sibala compare | odds | hand | play``."""
    sub = parser.add_subparsers(dest="sibala_verb", metavar="COMMAND", parser_class=type(parser))

    def common(p):
        p.add_argument("--variant", action="append", choices=VARIANTS,
                       help="a rule variant (repeatable): triple-scores, face-rank")
        p.add_argument("--json", action="store_true", help="machine-readable output")

    c = sub.add_parser("compare", help="the kata's verdict for Black's and White's dice")
    c.add_argument("hands", nargs="*", metavar="DICE", help="Black's then White's dice, e.g. 5354 2623")
    c.add_argument("--black", metavar="DICE")
    c.add_argument("--white", metavar="DICE")
    c.add_argument("--explain", action="store_true", help="show each hand's category, points and tie-break die")
    common(c)
    o = sub.add_parser("odds", help="exact odds from all 1296 rolls")
    o.add_argument("--reroll", action="store_true", help="re-roll a no-point hand until it scores")
    common(o)
    h = sub.add_parser("hand", help="one hand's evaluation and its chance against a random roll")
    h.add_argument("dice", metavar="DICE")
    h.add_argument("--reroll", action="store_true", help="the random roll re-rolls no point")
    common(h)
    p = sub.add_parser("play", help="roll against the house in the terminal")
    p.add_argument("--seed", type=seed_value, default=None, help="seed (default: random)")
    p.add_argument("--variant", action="append", choices=VARIANTS)

    def run(args):
        try:
            return dispatch(args)
        except SibalaError as exc:
            raise UsageError(f"sibala: {exc}") from None

    return run


def dispatch(args) -> int:
    """Run one sibala sub-command."""
    from ..sibala.odds import hand_odds, odds
    verb = args.sibala_verb
    if verb is None:
        raise UsageError("sibala: name a command: compare, odds, hand or play")
    variant = variant_of(args)
    if verb == "compare":
        black, white = args.black, args.white
        positional = list(args.hands)
        if black is None and positional:
            black = positional.pop(0)
        if white is None and positional:
            white = positional.pop(0)
        if positional:
            raise UsageError(f"sibala compare: unexpected {' '.join(positional)!r} (two hands only)")
        if black is None or white is None:
            raise UsageError("sibala compare: give Black's and White's dice, e.g. 5354 2623")
        b, w = parse_dice(black), parse_dice(white)
        line = compare(b, w, variant)
        record = {"black": b, "white": w, "result": line,
                  "hands": {"black": describe(evaluate(b, variant)), "white": describe(evaluate(w, variant))}}

        def text_compare():
            if args.explain:
                print(f"Black: {evaluate(b, variant).describe()}")
                print(f"White: {evaluate(w, variant).describe()}")
            print(line)
        return respond(args, record, text_compare)
    if verb == "odds":
        table = odds(variant, args.reroll)
        return respond(args, table.to_dict(), lambda: print_odds(table))
    if verb == "hand":
        dice = parse_dice(args.dice)
        hand = evaluate(dice, variant)
        chances = hand_odds(dice, variant, args.reroll)
        win, tie, lose = chances

        def text():
            print(hand.describe())
            against = "a random scoring roll (re-rolled)" if args.reroll else "a random roll"
            print(f"against {against}: beats {show(win)}, ties {show(tie)}, loses {show(lose)}")
        return respond(args, {"hand": describe(hand), **chances.to_dict()}, text)
    if verb == "play":
        from ..sessions.sibala_terminal import play_house
        play_house(seed=args.seed, variant=variant)
        return 0
    raise UsageError(f"sibala: unknown command {verb!r}")


def describe(hand) -> dict:
    """A hand as plain values for JSON output."""
    return {"dice": list(hand.dice), "category": hand.category, "points": hand.points, "tie_die": hand.tie_die}


def show(x: Fraction) -> str:
    """A fraction as ``n/d = decimal``."""
    return f"{x.numerator}/{x.denominator} = {float(x):.6f}"


def print_odds(table) -> None:
    """The odds of an :class:`~hogsolve.sibala.odds.OddsTable` as text."""
    title = "kata rules" if table.variant == ("kata",) else "variant " + ", ".join(table.variant)
    print(f"Sibala odds, {title}{', re-rolling no point' if table.reroll else ''} "
          f"(exact, from all {table.rolls} rolls)")
    print("categories of one roll:")
    for name, p in table.categories.items():
        print(f"  {name:14} {show(p)}")
    print("normal points of one roll:")
    for pts, p in table.points.items():
        label = {3: " (BG)", 12: " (十八)"}.get(pts, "")
        print(f"  {pts:>2}{label:6} {show(p)}")
    if table.reroll:
        print(f"expected rolls per hand: {show(table.expected_rolls_per_hand)}")
    one = table.one_roll_each
    print("one hand each" + (" (after re-rolls)" if table.reroll else "") + ":")
    print(f"  Black wins {show(one.beats)}")
    print(f"  tie        {show(one.ties)}")
    print(f"  White wins {show(one.loses)}")
    bank = table.banker_value
    print("banker's expected value per unit bet (re-roll rule; 12 or all of a kind wins at once, 3 loses):")
    print(f"  ties push:          {show(bank['ties_push'])}")
    print(f"  ties to the banker: {show(bank['ties_to_banker'])}")
