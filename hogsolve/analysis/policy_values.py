"""Exact evaluation kernels: fixed policy tables played against each other over the model.

These work on validated ``int`` tables indexed ``[score, opponent_score]``
and a compiled model; :mod:`hogsolve.analysis.evaluate` builds the analyses on them.

* :func:`play_values`: both players' win probabilities in every state;
* :func:`occupancy`: how often each state is reached with a given player to move;
* :func:`deviation_gains`: what changing one state's move once would gain.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from ..solver.backup import Arithmetic, OutcomeTable
from ..solver.kinds import backup_all, outcome_table
from ..solver.history import MemoryAxes, compact, expand, facing, pair_axes, supported, visit_axes
from ..solver.iteration import STAGE_CAP, ConvergenceError, by_score_sum
from ..solver.model import Model
from ..solver.stages import StagePlan, stage_plan
from ..solver.kinds import covers
from ..solver.passes import zero_dice_passes
from ..hog.rules import ENDLESS_GAME
from ..errors import InputError


def full_policy(model: Model, policy: np.ndarray) -> np.ndarray:
    """A policy table as ``model.value_shape`` ints (its own integer type, intp for any other):
    a (goal, goal) table is broadcast over the memories of a history rule (a strategy that
    ignores them)."""
    table = np.asarray(policy)
    if table.dtype.kind not in "iu":
        table = table.astype(np.intp)
    g = model.goal
    if table.shape == (g, g) or table.shape == (g * g,):
        table = table.reshape((g, g) + (1,) * len(model.context_shape))
    return np.broadcast_to(table, model.value_shape)


def play_values(model: Model, policy_a: np.ndarray, policy_b: np.ndarray,
                arithmetic: Optional[Arithmetic] = None, *, merged: bool = False) -> Tuple[np.ndarray, np.ndarray]:
    """Win probabilities of two policy tables playing each other.

    Returns ``(value_a, value_b)``: ``value_a[s, o]`` is the chance that the
    player using ``policy_a`` wins when it is to move with score ``s``
    against ``o`` (the other player using ``policy_b``); ``value_b`` likewise.
    Tables are shaped ``model.value_shape`` (memories too, under a history rule);
    in ``arithmetic``'s numbers (exact integers over ``arithmetic.one`` for
    :func:`hogsolve.solver.exact.exact_arithmetic`), floats by default.  Under a history
    rule the memories each strategy treats alike are evaluated once
    (:mod:`hogsolve.solver.history`); with ``merged`` the tables stay on those classes
    (``[0, 0, 0, 0]`` is still the start), else they are copied out to every memory.
    """
    policy_a, policy_b = full_policy(model, policy_a), full_policy(model, policy_b)
    forever_a, forever_b = endless_play(model, policy_a, policy_b), endless_play(model, policy_b, policy_a)
    axes: Optional[Tuple[MemoryAxes, MemoryAxes]] = None
    if model.context_shape and arithmetic is None and forever_a is None:
        axes = pair_axes(model, policy_a, policy_b, reached=merged)
        moves_a, moves_b = facing(model, axes)
        policy_a, policy_b = compact(policy_a, axes[0]), compact(policy_b, axes[1])
    else:
        moves_a, moves_b = outcome_table(model, arithmetic), outcome_table(model, arithmetic)
    dtype = moves_a.arith.dtype
    value_a, value_b = np.zeros(policy_a.shape, dtype=dtype), np.zeros(policy_b.shape, dtype=dtype)
    half: Any = None if forever_a is None else moves_a.arith.one * 0.5  # an endless game under --endless draw

    play_a, play_b = moves_a.follow(policy_a), moves_b.follow(policy_b)

    def update(k: int) -> float:
        d = model.diagonals[k]
        qa, qb = play_a(k), play_b(k)
        if forever_a is not None and forever_b is not None:  # endless for one order, endless for both
            qa, qb = np.where(forever_a[d.s, d.o], half, qa), np.where(forever_b[d.s, d.o], half, qb)
        change = 0.0 if model.progressive else max(float(np.abs(qa - value_a[d.s, d.o]).max()),
                                                   float(np.abs(qb - value_b[d.s, d.o]).max()))
        value_a[d.s, d.o], value_b[d.s, d.o] = qa, qb
        moves_a.fill(k, value_b, value_a)  # after a's move, b is to move (a again on an extra turn)
        moves_b.fill(k, value_a, value_b)
        return change

    by_score_sum(model, update).check("exact win rate")
    if axes is not None and not merged:
        return expand(value_a, axes[0]), expand(value_b, axes[1])
    return value_a, value_b


def endless_play(model: Model, mine: np.ndarray, theirs: np.ndarray) -> Optional[np.ndarray]:
    """``[s, o, ...]``: where the player using ``mine`` passes at (s, o) and the one using
    ``theirs`` passes back at (o, s), so play never ends (trailing axes broadcast, e.g. slots);
    None when the rules have no passes (:mod:`hogsolve.solver.passes`).  Raises
    :class:`ConvergenceError` if it happens and the rules agree on no value for an endless game."""
    passes = zero_dice_passes(model)
    if passes is None:
        return None
    extra = (None,) * (np.ndim(mine) - 2)
    forever = passes[(...,) + extra] & (mine == 0) & np.swapaxes(passes[(...,) + extra] & (theirs == 0), 0, 1)
    if forever.any() and model.rules.endless != "draw":
        s, o = (int(x) for x in np.argwhere(forever)[0][:2])
        raise ConvergenceError(f"{model.rules.name}: the strategies pass to each other forever at ({s}, {o}) and "
                               f"({o}, {s}): {ENDLESS_GAME}")
    return forever


def slots_supported(model: Model) -> bool:
    """True when :func:`slot_values` covers the model's rules (not history rules, a points
    bonus or Piggy Back: those take :func:`play_values` pair by pair)."""
    return covers(model, "slot kernel")


def slot_values(model: Model, policies: np.ndarray, partner: np.ndarray) -> np.ndarray:
    """Many fixed policy tables played at once: ``values[s, o, i]`` is the chance that the
    player in slot ``i`` (policy ``policies[i]``, shaped (goal, goal)) wins when it is to
    move at (s, o) against the player in slot ``partner[i]``, who moves after it.

    Two slots that are each other's partner are one match; ``play_values(model, a, b)``
    is slots ``[a, b]`` with partners ``[1, 0]``.  One pass serves every slot, so a
    policy against a block of opponents costs little more than one match.
    """
    if not slots_supported(model):
        raise InputError(f"{model.rules.name}: slot_values does not cover these rules; use play_values")
    g = model.goal
    policies = np.moveaxis(np.asarray(policies, dtype=np.intp).reshape(-1, g, g), 0, -1)  # (g, g, S)
    partner = np.asarray(partner, dtype=np.intp)
    plan = stage_plan(model) if covers(model, "lean policy pass") else None
    if plan is not None and plan.plain:
        return _plain_slot_values(model, plan, policies, partner)
    table = OutcomeTable(model, slots=policies.shape[2])
    values = np.zeros(policies.shape)
    forever = endless_play(model, policies, policies[:, :, partner])
    solved = set()

    def update(k: int) -> float:
        d = model.diagonals[k]
        if not model.progressive and d.again is None and k not in solved:
            solved.add(k)
            return _mirrored_solve(model, table, values, policies, partner, forever, k)
        q = table.chosen_slot_values(k, policies[d.s, d.o])
        if forever is not None:
            q = np.where(forever[d.s, d.o], 0.5, q)
        change = 0.0 if model.progressive else float(np.abs(q - values[d.s, d.o]).max())
        values[d.s, d.o] = q
        table.fill(k, values, values, partner)
        return change

    by_score_sum(model, update).check("exact win rates")
    return values


def _mirror(d) -> np.ndarray:
    """For each entry (s, o) of a score sum's diagonal ``d``, the position of (o, s) on it."""
    mirror = np.empty(len(d.s), dtype=np.intp)
    mirror[np.lexsort((d.s, d.o))] = np.lexsort((d.o, d.s))  # the p-th (o, s) is the p-th (s, o)
    return mirror


def _rest_and_stay(model: Model, table: OutcomeTable, values: np.ndarray, partner: np.ndarray, k: int,
                   evaluate) -> Tuple[np.ndarray, np.ndarray]:
    """What ``evaluate(k)`` (values of score sum ``k`` from the backup) is made of, as an affine
    function of that sum's own values (``values[s, o, slot]``): its values with the sum's set to 1
    (the turns that leave it: C) and what setting them to 0 adds (the chance of staying on it: q);
    -inf (a move the rules forbid) stays."""
    ends = []
    for mark in (1.0, 0.0):
        values.reshape(-1, values.shape[-1])[model.diagonals[k].flat] = mark
        table.fill(k, values, values, partner)
        ends.append(evaluate(k).copy())
    stay = np.zeros(ends[0].shape)
    np.subtract(ends[1], ends[0], out=stay, where=np.isfinite(ends[0]))
    return ends[0], stay


def _mirrored_solve(model: Model, table: OutcomeTable, values: np.ndarray, policies: np.ndarray,
                    partner: np.ndarray, forever: Optional[np.ndarray], k: int) -> float:
    """Score sum ``k`` of a game whose turns can score nothing (Neller's Hog, a pass), solved at
    once instead of iterated: when the only turns that stay on the sum hand the other player the
    same scores (a roll scoring 0 from (s, o) leads to the opponent at (o, s)), each slot's value
    is ``V_i(s, o) = C_i + q_i (1 - V_j(o, s))`` with j its partner, two equations per pair of
    mirrored states, solved exactly: ``V_i = (C_i + q_i (1 - C_j - q_j)) / (1 - q_i q_j)``.

    ``C`` and ``q`` come from the backup itself (the sum's values set to 1, then to 0: the chosen
    value is affine in them), so nothing about the rules is assumed; ``by_score_sum`` then updates
    the sum as usual, which changes nothing where the assumption holds and iterates on from this
    start where it does not.  Returns a change that asks for that check."""
    d = model.diagonals[k]
    chosen = policies[d.s, d.o]
    rest, stay = _rest_and_stay(model, table, values, partner, k, lambda k: table.chosen_slot_values(k, chosen))
    mirror = _mirror(d)
    their_rest, their_stay = rest[mirror][:, partner], stay[mirror][:, partner]
    both = stay * their_stay
    solved = np.full(rest.shape, 0.5)  # both pass for ever: an endless game, a draw (see endless_play)
    np.divide(rest + stay * (1.0 - their_rest - their_stay), 1.0 - both, out=solved, where=both < 1.0)
    if forever is not None:
        solved = np.where(forever[d.s, d.o], 0.5, solved)
    values[d.s, d.o] = solved
    table.fill(k, values, values, partner)
    return 1.0


def _plain_pass(model: Model, plan: StagePlan, values: np.ndarray, partner: np.ndarray):
    """The lean pass over a plain ``plan``'s score sums (see :mod:`hogsolve.solver.stages`),
    largest first, for ``values`` (g * g, S):
    yields each sum's ``(sums, states, m)``, ``sums[A, m, S]`` the weighted outcome values
    of every action (zero dice: Free Bacon's), in a buffer reused for the next sum; the
    caller writes the sum's ``values[states]`` (the mover's, ``1 - sums`` of its choice)
    before asking for the next, and the pass records them for slot ``partner[i]``."""
    S = values.shape[1]
    table = OutcomeTable(model, slots=S)
    outcomes = table.table
    cells = outcomes.reshape(-1, S)
    w = table.arith.weights
    A, P = w.shape[1:]
    buffer = np.empty(A * model.goal * S)
    for k, o, m, kind, bacon, states, lands, *_ in plan.stages:
        sums = buffer[: A * m * S].reshape(A, m, S)
        np.matmul(w[kind], outcomes[k: k + P, o: o + m].reshape(P, m * S), out=sums.reshape(A, m * S))
        cells.take(bacon, axis=0, out=sums[0])
        yield sums, states, m
        outcomes[k, o: o + m] = values[lands[:, None], partner]


def _plain_slot_values(model: Model, plan: StagePlan, policies: np.ndarray, partner: np.ndarray) -> np.ndarray:
    """:func:`slot_values` for the plain rules of ``plan``: the same products with the
    per-sum indexing worked out once (a strided slice for the sum's states), so the
    interpreter's share per score sum shrinks."""
    g = model.goal
    S = policies.shape[2]
    chosen = np.ascontiguousarray(policies.reshape(g * g, S))
    values = np.zeros((g * g, S))
    columns = np.arange(g * S)
    for sums, states, m in _plain_pass(model, plan, values, partner):
        q = sums.reshape(len(sums), m * S)[chosen[states].reshape(-1), columns[: m * S]]
        values[states] = np.subtract(1.0, q, out=q).reshape(m, S)
    return values.reshape(g, g, S)


def _plain_best_response(model: Model, plan: StagePlan, opponent: np.ndarray):
    """:func:`best_response_values` for the plain rules of ``plan`` (see :func:`_plain_slot_values`)."""
    g = model.goal
    values = np.zeros((g * g, 2))  # slot 0: the best responder, slot 1: the fixed opponent
    kept = np.zeros((g * g, model.num_actions))
    theirs = opponent.reshape(g * g)
    states_of = np.arange(g)
    for sums, states, m in _plain_pass(model, plan, values, np.array([1, 0])):
        every = np.subtract(1.0, sums, out=sums)
        mine = every[:, :, 0]
        kept[states] = mine.T
        np.maximum.reduce(mine, 0, None, values[states, 0])
        values[states, 1] = every[theirs[states], states_of[:m], 1]
    return values[:, 0].reshape(g, g), values[:, 1].reshape(g, g), kept.reshape(g, g, -1)


def best_response_values(model: Model, opponent: np.ndarray):
    """The best response to the fixed table ``opponent`` in one two-slot pass (rules that
    :func:`slots_supported` covers): ``(value_me, value_opponent, action_values_me)``."""
    g = model.goal
    opponent = np.asarray(opponent, dtype=np.intp)
    plan = stage_plan(model) if covers(model, "lean policy pass") else None
    if plan is not None and plan.plain:
        return _plain_best_response(model, plan, opponent)
    table = OutcomeTable(model, slots=2)
    values = np.zeros((g, g, 2))
    kept = np.zeros((g, g, model.num_actions))
    partner = np.array([1, 0])

    flat, kept_flat, opponent_flat = values.reshape(-1, 2), kept.reshape(-1, kept.shape[2]), opponent.reshape(-1)

    passes = zero_dice_passes(model)
    # where the opponent passes back, my pass starts an endless game (EndlessPlay without a draw)
    back = None if passes is None else passes & (opponent == 0).T & passes.T
    if back is not None and back.any() and model.rules.endless != "draw":
        back = None  # my pass there is worth what the iteration gives; a pass back and forth shows as stuck

    solved = set()

    def update(k: int) -> float:
        d = model.diagonals[k]
        if not model.progressive and d.again is None and passes is None and k not in solved:
            solved.add(k)
            return _mirrored_best_response(model, table, values, opponent_flat, k)
        every = table.slot_action_values(k)  # (A, m, 2): me in slot 0, the opponent in slot 1
        if back is not None:
            every[0, :, 0] = np.where(back[d.s, d.o], 0.5, every[0, :, 0])
        before = None if model.progressive else flat[d.flat].copy()
        flat[d.flat, 0] = every[:, :, 0].max(axis=0)
        flat[d.flat, 1] = every[opponent_flat[d.flat], np.arange(len(d.s)), 1]
        if back is not None:  # the opponent passing at (s, o) to my pass back: the endless game
            mine_back = back.T[d.s, d.o] & (every[:, :, 0].argmax(axis=0)[::-1] == 0)
            flat[d.flat, 1] = np.where(mine_back, 0.5, flat[d.flat, 1])
        kept_flat[d.flat] = every[:, :, 0].T
        change = 0.0 if before is None else float(np.abs(flat[d.flat] - before).max())
        table.fill(k, values, values, partner)
        return change

    by_score_sum(model, update).check("best response")
    return values[..., 0], values[..., 1], kept


def _mirrored_best_response(model: Model, table: OutcomeTable, values: np.ndarray, opponent_flat: np.ndarray,
                            k: int) -> float:
    """:func:`_mirrored_solve` for the best response (slot 0) to a fixed opponent (slot 1): each
    action n's value is ``a_n + b_n (1 - W)`` with W the opponent's value at the mirrored state,
    itself ``C + q (1 - V)``; each action then has the fixed point ``x_n`` of its own affine map,
    and the best response's value is their maximum (the fixed point of the maximum of increasing
    affine contractions is the largest of theirs).  Checked by one ordinary update afterwards.
    Used only where no zero-dice pass exists (Neller's Hog): where a pass can be passed back, the
    iteration must show the endless game (best_response refuses it unless it is a draw)."""
    d = model.diagonals[k]
    flat = values.reshape(-1, 2)
    rest, stay = _rest_and_stay(model, table, values, np.array([1, 0]), k, table.slot_action_values)  # (A, m, 2)
    allowed = np.isfinite(rest)  # -inf: fewer dice than the rules allow, never chosen
    m = len(d.s)
    mirror = _mirror(d)
    chosen = opponent_flat[d.flat]
    their_rest, their_stay = rest[chosen, np.arange(m), 1], stay[chosen, np.arange(m), 1]  # at each state
    c, q = their_rest[mirror], their_stay[mirror]  # the opponent's, at the mirrored state
    a, b = rest[:, :, 0], stay[:, :, 0]  # (A, m): mine
    fixed = np.full(a.shape, 0.5)
    np.divide(a + b * (1.0 - c - q), 1.0 - b * q, out=fixed, where=(b * q < 1.0) & allowed[:, :, 0])
    fixed[~allowed[:, :, 0]] = -np.inf
    mine = fixed.max(axis=0)
    flat[d.flat, 0] = mine
    flat[d.flat, 1] = their_rest + their_stay * (1.0 - mine[mirror])
    table.fill(k, values, values, np.array([1, 0]))
    return 1.0


def occupancy(model: Model, policy_me: np.ndarray, policy_opp: np.ndarray) -> np.ndarray:
    """Expected visits of each state with "me" to move, averaged over both seats.

    Play starts at (0, 0) with me first or the opponent first, half each;
    ``visits[s, o]`` is the expected number of times I am to move at (s, o)
    (``visits[s, o, a, b]`` with the memories under a history rule).
    """
    if model.context_shape:
        return _history_occupancy(model, policy_me, policy_opp)
    g, S = model.goal, model.num_states
    visits = np.zeros(S)
    pending = [np.zeros(S + 2), np.zeros(S + 2)]  # [me to move, opponent to move]
    pending[0][0] = pending[1][0] = 0.5
    policies = (policy_me.reshape(-1), policy_opp.reshape(-1))
    # under --endless draw, two players who pass to each other forever end the game there (a draw)
    endless = [endless_play(model, policy_me, policy_opp), endless_play(model, policy_opp, policy_me)]
    stops = [np.zeros(S, dtype=bool) if e is None else e.reshape(-1) for e in endless]
    points = np.arange(model.counts.shape[2])
    for k in range(2 * g - 1):
        d = model.diagonals[k]
        if not model.progressive and model.piggy is None and model.again is None:
            _mirrored_occupancy(model, pending, visits, policies, stops, k)  # then the loop finds no mass left
        for _ in range(STAGE_CAP):
            mass = [pending[i][d.flat].copy() for i in (0, 1)]
            if not (mass[0].any() or mass[1].any()):
                break
            for i in (0, 1):
                pending[i][d.flat] = 0.0
            visits[d.flat] += mass[0]
            for i in (0, 1):
                mass[i] = np.where(stops[i][d.flat], 0.0, mass[i])
                actions = policies[i][d.flat]
                w = model.probability[d.kinds, actions]  # (m, P); zero for Free Bacon
                if model.piggy is not None:  # a roll scoring 0 lands where Piggy Back takes it
                    rolled = actions > 0
                    piggy_mass = mass[i][rolled] * w[rolled, 0]
                    np.add.at(pending[1 - i], model.piggy_landing(d.s[rolled], d.o[rolled], actions[rolled]),
                              piggy_mass)
                    w = w.copy()
                    w[rolled, 0] = 0.0
                _spread(model, pending, i, d.s[:, None], d.o[:, None], points, mass[i][:, None] * w)
                bacon = actions == 0
                _spread(model, pending, i, d.s[bacon], d.o[bacon], model.free_bacon_points[d.s[bacon], d.o[bacon]],
                        mass[i][bacon])
            if model.progressive:
                break
            if mass[0].sum() + mass[1].sum() < 1e-17:
                break
        else:
            raise ConvergenceError(f"occupancy: play stays on score sum {k} after {STAGE_CAP} turns")
    return visits.reshape(g, g)


def _mirrored_occupancy(model: Model, pending, visits: np.ndarray, policies, stops, k: int) -> None:
    """:func:`occupancy`'s score sum ``k`` at once where its only turns that stay on the sum hand
    the other player the mirrored scores (Neller's Hog): the mass that bounces between (s, o) and
    the opponent's (o, s) is a geometric series, so each mover's visits there are
    ``V_i = (m_i + q_j m_j) / (1 - q_i q_j)`` (m the mass that arrived, q the chance of staying,
    j the other mover at the mirrored state), and only what leaves the sum is spread.  Where a
    turn stays on the sum otherwise, or a pass never ends, nothing is done here and the
    iteration takes the sum as before."""
    g, S = model.goal, model.num_states
    d = model.diagonals[k]
    mass = [pending[i][d.flat].copy() for i in (0, 1)]
    if not (mass[0].any() or mass[1].any()) or stops[0][d.flat].any() or stops[1][d.flat].any():
        return
    points = np.arange(model.counts.shape[2])
    mirror = _mirror(d)
    mirror_flat = d.o * g + d.s
    parts = []
    for i in (0, 1):
        actions = policies[i][d.flat]
        w = model.probability[d.kinds, actions]  # (m, P); zero for Free Bacon
        bacon = actions == 0
        targets = model.land(d.s[:, None], d.o[:, None], points[None, :])
        bacon_targets = model.land(d.s, d.o, model.free_bacon_points[d.s, d.o])

        def on_sum(t):
            return (t < S) & (t // g + t % g == k)
        same, bacon_same = on_sum(targets), on_sum(bacon_targets)
        if ((same & (targets != mirror_flat[:, None]) & (w > 0)).any()
                or (bacon & bacon_same & (bacon_targets != mirror_flat)).any()):
            return  # a turn that stays on the sum elsewhere than the mirror: the iteration's case
        stay = (w * same).sum(axis=1) + (bacon & bacon_same)
        parts.append((actions, w, bacon, same, bacon_same, stay))
    q0, q1 = parts[0][5], parts[1][5]
    denominators = [1.0 - q0 * q1[mirror], 1.0 - q1 * q0[mirror]]
    if min(float(x.min()) for x in denominators) <= 0.0:
        return
    totals = [(mass[0] + q1[mirror] * mass[1][mirror]) / denominators[0],
              (mass[1] + q0[mirror] * mass[0][mirror]) / denominators[1]]
    for i in (0, 1):
        pending[i][d.flat] = 0.0
    visits[d.flat] += totals[0]
    for i, (_, w, bacon, same, bacon_same, _) in enumerate(parts):
        _spread(model, pending, i, d.s[:, None], d.o[:, None], points, totals[i][:, None] * np.where(same, 0.0, w))
        leave = bacon & ~bacon_same
        _spread(model, pending, i, d.s[leave], d.o[leave], model.free_bacon_points[d.s[leave], d.o[leave]],
                totals[i][leave])


def _history_occupancy(model: Model, policy_me: np.ndarray, policy_opp: np.ndarray) -> np.ndarray:
    """:func:`occupancy` under a history rule: the chances carried forward score sum by score sum
    through the same outcome tables as the values, each step the transpose of the values' own
    (:meth:`~hogsolve.solver.history.HistoryTable.spread`); the opponent's memories it plays
    alike are one class, mine are kept whole (their visits are reported) but for those I never
    have (no visits)."""
    policy_me, policy_opp = full_policy(model, policy_me), full_policy(model, policy_opp)
    axes = visit_axes(model, policy_me, policy_opp)
    tables = facing(model, axes)
    places = [table.places(compact(policy, a)) for table, policy, a in zip(tables, (policy_me, policy_opp), axes)]
    g = model.goal
    pending = [np.zeros((g * g,) + a.sizes) for a in axes]  # [state, own, other] of each mover
    for start in pending:
        start[0, 0, 0] = 0.5  # (0, 0) with both memories 0, either player first
    visits = np.zeros((g * g,) + axes[0].sizes)
    for table in tables:
        table.clear_outcomes()
    for k in range(2 * g - 1):
        d = model.diagonals[k]
        for _ in range(STAGE_CAP):
            for i, table in enumerate(tables):  # turns that ended on this sum: the other's states
                landed = table.arrivals(k)
                ongoing = d.lands < model.win
                np.add.at(pending[1 - i], d.lands[ongoing], landed[ongoing])
            arrived = [p[d.flat] for p in pending]
            if not (arrived[0].any() or arrived[1].any()):
                break
            for p in pending:
                p[d.flat] = 0.0
            visits[d.flat] += arrived[0]
            for i, table in enumerate(tables):
                table.spread(k, places[i].place[d.s, d.o], places[i], arrived[i])
            if model.progressive or arrived[0].sum() + arrived[1].sum() < 1e-17:  # what stays is negligible
                break
        else:
            raise ConvergenceError(f"occupancy: play stays on score sum {k} after {STAGE_CAP} turns")
    never = np.ones(model.context_shape, dtype=bool)  # memories play never reaches: no visits
    never[np.ix_(*supported(axes[0]))] = False
    visits = expand(visits.reshape((g, g) + axes[0].sizes), axes[0])
    visits[:, :, never] = 0.0
    return visits


def deviation_gains(model: Model, policy: np.ndarray) -> np.ndarray:
    """``gain[s, o, n]``: win probability gained by rolling ``n`` once at (s, o)
    instead of following ``policy``, both players following it otherwise."""
    values, _ = play_values(model, policy, policy)
    return backup_all(model, values) - values[..., None]


def _spread(model: Model, pending, mover: int, score, opponent, points, mass) -> None:
    """Add ``mass`` to where turns scoring ``points`` from (score, opponent) lead: to the
    other player's pending states, or to the mover's own on an extra turn."""
    targets = model.land(score, opponent, points)
    new = score + points
    if model.again is None:
        np.add.at(pending[1 - mover], targets, mass)
        return
    again = np.broadcast_to(model.again[new, opponent], np.shape(mass))
    targets = np.broadcast_to(targets, np.shape(mass))
    np.add.at(pending[1 - mover], targets[~again], mass[~again])
    np.add.at(pending[mover], targets[again], mass[again])
