"""Slow, independent reference implementations for the tests.

Plain Python, written from the rules as stated in the seeds, sharing nothing
with hogsolve but the rule components under test.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache


@lru_cache(maxsize=None)
def roll_distribution(num_dice: int, sides: int, pig_out: int = 1, pig_out_rule=None):
    """{points: Fraction} by a dynamic programme over (sum so far, number of ones)."""
    states = {(0, 0): Fraction(1)}
    for _ in range(num_dice):
        nxt = {}
        for (total, ones), p in states.items():
            for face in range(1, sides + 1):
                key = (total + face, ones + (face == 1))
                nxt[key] = nxt.get(key, 0) + p / sides
        states = nxt
    out = {}
    for (total, ones), p in states.items():
        pts = total if not ones else pig_out_rule(ones, num_dice) if pig_out_rule else pig_out
        out[pts] = out.get(pts, 0) + p
    return out


def brute_force_distribution(num_dice: int, sides: int, pig_out: int = 1):
    """{points: count} by listing every roll."""
    out = {}
    for roll in itertools.product(range(1, sides + 1), repeat=num_dice):
        pts = pig_out if 1 in roll else sum(roll)
        out[pts] = out.get(pts, 0) + 1
    return out


def turn_outcome(rules, score, opp, points):
    """'win', 'loss', (next mover's score, next opponent's score), or ('again', score, opp)
    when the mover moves again, from the rules text."""
    new = score + points
    if getattr(rules, "points_bonus", None) is not None:
        mover_extra, opponent_extra = rules.points_bonus(new, opp, points)
        new, opp = new + int(mover_extra), opp + int(opponent_extra)
    new += int(rules.bonus(new, opp))
    if rules.swaps(new, opp):
        new, opp = opp, new
    if new >= rules.goal:
        return "win"
    if opp >= rules.goal:
        return "loss"
    if rules.extra_turn(new, opp):
        return ("again", new, opp)  # the same player moves again
    return (opp, new)


def outcome_distribution(rules, score, opp, num_dice, exact=False):
    """{outcome: probability} of one action."""
    if num_dice == 0:
        bacon = rules.free_bacon(score, opp) if getattr(rules.free_bacon, "uses_score", False) \
            else rules.free_bacon(opp)
        return {turn_outcome(rules, score, opp, int(rules.turn_score(int(bacon), 0))): 1}
    sides = int(rules.dice_sides(score, opp))
    out = {}
    for pts, p in roll_distribution(num_dice, sides, rules.pig_out, rules.pig_out_rule).items():
        pts = int(rules.turn_score(pts, num_dice))
        if pts == 0 and rules.piggy_back:  # the opponent gains the dice rolled
            key = turn_outcome(rules, score, opp + num_dice, 0)
        else:
            key = turn_outcome(rules, score, opp, pts)
        out[key] = out.get(key, 0) + (p if exact else float(p))
    return out


def recursive_values(rules, exact=False):
    """Optimal values by memoised recursion (needs every turn to score)."""
    @lru_cache(maxsize=None)
    def action_value(s, o, n):
        total = 0
        for key, p in outcome_distribution(rules, s, o, n, exact).items():
            if key == "win" or key == "loss":
                v = 1 if key == "win" else 0
            elif key[0] == "again":
                v = value(key[1], key[2])
            else:
                v = 1 - value(*key)
            total += p * v
        return total

    @lru_cache(maxsize=None)
    def value(s, o):
        return max(action_value(s, o, n) for n in range(rules.max_dice + 1))

    # warm the cache from the end to keep the recursion shallow
    for k in range(2 * rules.goal - 2, -1, -1):
        for s in range(max(0, k - rules.goal + 1), min(k, rules.goal - 1) + 1):
            value(s, k - s)
    return value, action_value


def iterated_values(rules, sweeps=2000, tol=1e-15, start=0.0):
    """Optimal values by plain Gauss-Seidel value iteration over a dict, every value starting
    at ``start`` (1/2: the limit of games cut short as a draw, which is the value of the
    game in which an endless game is a draw), states by falling score sum."""
    g = rules.goal
    dists = {(s, o, n): outcome_distribution(rules, s, o, n)
             for s in range(g) for o in range(g) for n in range(rules.max_dice + 1)}
    v = {(s, o): start for s, o in sorted(((s, o) for s in range(g) for o in range(g)), key=lambda x: -sum(x))}
    moves = range(getattr(rules, "min_dice", 0), rules.max_dice + 1)
    for _ in range(sweeps):
        change = 0.0
        for (s, o) in v:
            best = max(sum(p * (1 if k == "win" else 0 if k == "loss" else 1 - v[k])
                           for k, p in dists[s, o, n].items())
                       for n in moves)
            change = max(change, abs(best - v[s, o]))
            v[s, o] = best
        if change < tol:
            break
    return v


def recursive_win_rate(rules, policy_a, policy_b):
    """P(a wins | a first), P(a wins | b first) by plain recursion (exact fractions)."""
    @lru_cache(maxsize=None)
    def value(s, o, a_moves):
        policy = policy_a if a_moves else policy_b
        total = Fraction(0)
        for key, p in outcome_distribution(rules, s, o, int(policy[s][o]), exact=True).items():
            if key == "win":
                mover_wins = 1
            elif key == "loss":
                mover_wins = 0
            else:
                mover_wins = 1 - value(key[0], key[1], not a_moves)
            total += p * mover_wins
        return total

    for k in range(2 * rules.goal - 2, -1, -1):
        for s in range(max(0, k - rules.goal + 1), min(k, rules.goal - 1) + 1):
            value(s, k - s, True), value(s, k - s, False)
    return value(0, 0, True), 1 - value(0, 0, False)


def recursive_mixture_win_rate(rules, chances_a, chances_b):
    """P(a wins | a first), P(a wins | b first) by plain recursion in exact fractions when each
    player draws its dice from ``chances[s][o][n]`` (Fractions); extra turns keep the mover.
    For rules whose every turn scores (no repeated states)."""
    @lru_cache(maxsize=None)
    def value(s, o, a_moves):
        chances = chances_a if a_moves else chances_b
        total = Fraction(0)
        for n, chance in enumerate(chances[s][o]):
            if chance == 0:
                continue
            for key, p in outcome_distribution(rules, s, o, n, exact=True).items():
                if key == "win":
                    mover_wins = Fraction(1)
                elif key == "loss":
                    mover_wins = Fraction(0)
                elif key[0] == "again":
                    mover_wins = value(key[1], key[2], a_moves)
                else:
                    mover_wins = 1 - value(key[0], key[1], not a_moves)
                total += chance * p * mover_wins
        return total

    for k in range(2 * rules.goal - 2, -1, -1):
        for s in range(max(0, k - rules.goal + 1), min(k, rules.goal - 1) + 1):
            value(s, k - s, True), value(s, k - s, False)
    return value(0, 0, True), 1 - value(0, 0, False)


def recursive_best_response(rules, opponent):
    """Best response win rate against a fixed policy table, by plain recursion (floats)."""
    @lru_cache(maxsize=None)
    def mine(s, o):
        return max(action(s, o, n) for n in range(rules.max_dice + 1))

    def action(s, o, n):
        total = 0.0
        for key, p in outcome_distribution(rules, s, o, n).items():
            total += p * (1 if key == "win" else 0 if key == "loss" else 1 - theirs(*key))
        return total

    @lru_cache(maxsize=None)
    def theirs(s, o):
        total = 0.0
        for key, p in outcome_distribution(rules, s, o, int(opponent[s][o])).items():
            total += p * (1 if key == "win" else 0 if key == "loss" else 1 - mine(*key))
        return total

    for k in range(2 * rules.goal - 2, -1, -1):
        for s in range(max(0, k - rules.goal + 1), min(k, rules.goal - 1) + 1):
            mine(s, k - s), theirs(s, k - s)
    return mine(0, 0), 1 - theirs(0, 0)


def stagewise_values(rules, tie=1e-13, exact=False):
    """Optimal values for rulesets whose turns may score 0, solved in closed form.

    A turn scoring 0 points keeps the score sum and leads from (s, o) to one
    fixed state, whatever the dice count: (o, s), or (s, o) itself after a
    swap.  So within a score sum every state waits on at most one state of
    the same sum, and the loops are of length 1 or 2.  Each is solved
    directly: a self-loop ``v = max_a c_a + p_a (1 - v)`` has the largest of
    the per-action fixed points; a pair is solved for every pair of actions
    and the pair of mutual best responses kept.  Plain floats, no iteration; with
    ``exact``, Fractions and no tolerance.
    """
    g = rules.goal
    tie = 0 if exact else tie
    value = {}

    def split(s, o, n):
        """(c, p, stay): value from leaving the sum, chance of staying, and where."""
        c, p, stay = 0, 0, None
        for key, q in outcome_distribution(rules, s, o, n, exact).items():
            if key == "win":
                c += q
            elif key == "loss":
                continue
            elif key[0] + key[1] == s + o:
                p, stay = p + q, key
            else:
                c += q * (1 - value[key])
        return c, p, stay

    for k in range(2 * g - 2, -1, -1):
        states = [(s, k - s) for s in range(max(0, k - g + 1), min(k, g - 1) + 1)]
        options, succ = {}, {}
        for x in states:
            options[x] = []
            for n in range(rules.min_dice, rules.max_dice + 1):
                c, p, stay = split(*x, n)
                options[x].append((c, p))
                if stay is not None:
                    succ[x] = stay
        todo = list(states)
        while todo:
            rest = []
            for x in todo:
                y = succ.get(x)
                if y is None or y == x:   # no loop, or a self-loop
                    value[x] = max(c if y is None else (c + p) / (1 + p) for c, p in options[x])
                elif y in value:          # waits on a solved state
                    value[x] = max(c + p * (1 - value[y]) for c, p in options[x])
                elif succ.get(y) == x:    # a pair waiting on each other
                    value[x], value[y] = _solve_pair(options[x], options[y], tie)
                else:
                    rest.append(x)
            if len(rest) == len(todo):
                raise AssertionError(f"unsolved states on sum {k}: {rest}")
            todo = [x for x in rest if x not in value]
    return value


def _solve_pair(ox, oy, tie):
    """Values of x and y where x stays at y and y at x (the other player's view)."""
    for ca, pa in ox:
        for cb, pb in oy:
            if pa * pb == 1:  # both pass for sure: no single value (an endless game), never the answer here
                continue
            # vx = ca + pa (1 - vy), vy = cb + pb (1 - vx)
            vx = (ca + pa - pa * cb - pa * pb) / (1 - pa * pb)
            vy = cb + pb * (1 - vx)
            if (all(c + p * (1 - vy) <= vx + tie for c, p in ox)
                    and all(c + p * (1 - vx) <= vy + tie for c, p in oy)):
                return vx, vy
    raise AssertionError("no pair of mutual best responses")


def feral_values(rules):
    """Optimal values ``value(s, o, mine, theirs)`` under Feral Hogs, by memoised recursion.

    ``mine`` / ``theirs`` are the raw remembered values (dice rolled or points
    scored on each player's previous turn), never capped: the recursion knows
    nothing of hogsolve's compression of large memories.
    """
    bonus_rule = rules.history

    def remembered(n, points):
        return n if bonus_rule.remembers == "dice" else points

    def action_value(s, o, mine, theirs, n):
        if n == 0:
            bacon = rules.free_bacon(s, o) if getattr(rules.free_bacon, "uses_score", False) \
                else rules.free_bacon(o)
            dist = {int(rules.turn_score(int(bacon), 0)): 1.0}
        else:
            dist = {int(rules.turn_score(p, n)): float(q)
                    for p, q in roll_distribution(n, 6, rules.pig_out, rules.pig_out_rule).items()}
        extra = bonus_rule.bonus if abs(n - mine) == bonus_rule.gap else 0
        total = 0.0
        for points, q in dist.items():
            key = turn_outcome(rules, s, o, points + extra)
            v = 1.0 if key == "win" else 0.0 if key == "loss" else \
                1 - value(key[0], key[1], theirs, remembered(n, points))
            total += q * v
        return total

    @lru_cache(maxsize=None)
    def value(s, o, mine, theirs):
        return max(action_value(s, o, mine, theirs, n) for n in range(rules.max_dice + 1))

    return value, action_value
