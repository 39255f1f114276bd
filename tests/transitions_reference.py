"""A slow reference for any compiled model: value iteration over ``Model.transitions``, state by
state, in plain Python (the tests of the fast kernels, tests/test_every_game_kernels.py and
tests/test_history_kernels.py, compare against it)."""
import numpy as np


def reference_values(model, mine, theirs):
    """``(value_mine, value_theirs)`` at the start by Gauss-Seidel value iteration over
    ``model.transitions``: ``mine`` a table of dice or None for the best response."""
    g = model.goal
    states = sorted(np.ndindex(model.value_shape), key=lambda st: -(st[0] + st[1]))
    actions = range(model.rules.min_dice, model.num_actions)
    moves = {}

    def outcomes(state, n):
        if (state, n) not in moves:
            moves[state, n] = [(key, float(p)) for key, p in model.transitions(state[0], state[1], n, state[2:])]
        return moves[state, n]

    def state_of(key):
        if isinstance(key, tuple):
            flat, a, b = key
            return (flat // g, flat % g, a, b)
        return divmod(key, g)

    def worth(state, n, values, own):
        total = 0.0
        for key, p in outcomes(state, n):
            if key == model.win:
                total += p
            elif key == model.loss:
                continue
            elif not isinstance(key, tuple) and model.again is not None and key >= model.again_base:
                total += p * own[state_of(key - model.again_base)]  # the mover moves again
            else:
                total += p * (1 - values[state_of(key)])
        return total

    value = [dict.fromkeys(states, 0.5), dict.fromkeys(states, 0.5)]
    for _ in range(5000):
        change = 0.0
        for state in states:
            for me in (0, 1):
                table = mine if me == 0 else theirs
                other = value[1 - me]
                if table is None:
                    new = max(worth(state, n, other, value[me]) for n in actions)
                else:
                    new = worth(state, int(table[state[:2]]), other, value[me])
                change = max(change, abs(new - value[me][state]))
                value[me][state] = new
        if change < 1e-15:
            break
    start = (0, 0) + (0,) * len(model.context_shape)
    return value[0][start], value[1][start]
