"""Benchmark the roll-or-hold solver, and OpenSpiel's value iteration when it is installed.

    python scripts/bench_pig.py [--repeats 5] [--openspiel-seconds 120]

Prints the median solve time (certificate included) of pig, big-pig and
piglet, and the time of one exact win rate.  With ``open_spiel`` installed
(``pip install open_spiel cvxpy``), it also times
``open_spiel.python.algorithms.value_iteration`` on ``pig`` at winscore 10 and
20 in a child process with a time limit, and prints the ratio to hogsolve on
the same game.  OpenSpiel's Pig is cyclic (a turn that scores nothing returns to
the same scores), so its value iteration runs with ``cyclic_game=True`` (without
it the recursion follows the cycle to its turn horizon); its game has a turn horizon
of 1000 here, which optimal play does not reach.  Its value is player 0's return
in [-1, 1], printed beside as a probability (return + 1) / 2.
"""
from __future__ import annotations

import argparse
import functools
import subprocess
import sys

from bench import median_time  # scripts/ is on the path when a script runs
from hogsolve import get_pig_game, hold_at
from hogsolve.analysis.pig.evaluate import pig_win_rate
from hogsolve.solver.pig import solve_pig

OPENSPIEL_CHILD = r"""
import sys, threading, time
sys.setrecursionlimit(1_000_000)
threading.stack_size(512 * 1024 * 1024)
def main():
    import pyspiel
    from open_spiel.python.algorithms import value_iteration
    game = pyspiel.load_game("pig", {"winscore": int(sys.argv[1]), "players": 2, "horizon": int(sys.argv[2])})
    start = time.perf_counter()
    values = value_iteration.value_iteration(game, depth_limit=-1, threshold=1e-9, cyclic_game=True)
    state = game.new_initial_state()
    print(time.perf_counter() - start, len(values), values[str(state)])
thread = threading.Thread(target=main)
thread.start()
thread.join()
"""


def openspiel(winscore: int, horizon: int, limit: float):
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return None
    try:
        out = subprocess.run([sys.executable, "-c", OPENSPIEL_CHILD, str(winscore), str(horizon)],
                             capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return "timeout"
    seconds, states, value = out.stdout.split()
    return float(seconds), int(states), float(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--openspiel-seconds", type=float, default=120.0)
    args = parser.parse_args()
    print(f"{'game':8} {'goal':>5} {'states':>9} {'median solve':>13}  P(first player wins)")
    for name in ("pig", "big-pig", "piglet"):
        game = get_pig_game(name)
        solution = solve_pig(game)
        seconds = median_time(functools.partial(solve_pig, game), args.repeats)
        states = sum(game.goal - i for i in range(game.goal)) * game.goal
        print(f"{name:8} {game.goal:>5} {states:>9} {seconds * 1000:>10.0f} ms  "
              f"{solution.first_player_win_probability:.12f} "
              f"({'proven' if solution.certificate.proven else 'not proven'})")
    game = get_pig_game("pig")
    solution = solve_pig(game)
    seconds = median_time(lambda: pig_win_rate(solution, hold_at(20), game), args.repeats)
    print(f"exact win rate of optimal vs hold_at:20 (pig, goal 100): {seconds * 1000:.0f} ms")
    for winscore, horizon in ((10, 1000), (20, 1000)):
        ours = median_time(functools.partial(solve_pig, get_pig_game("pig", goal=winscore)), args.repeats)
        mine = solve_pig(get_pig_game("pig", goal=winscore)).first_player_win_probability
        result = openspiel(winscore, horizon, args.openspiel_seconds)
        if result is None:
            print(f"OpenSpiel pig(winscore={winscore}): open_spiel is not installed; hogsolve {ours * 1000:.1f} ms")
        elif result == "timeout":
            print(f"OpenSpiel pig(winscore={winscore}, horizon={horizon}) value_iteration: no answer within "
                  f"{args.openspiel_seconds:.0f} s; hogsolve {ours * 1000:.1f} ms")
        else:
            seconds, states, value = result
            print(f"OpenSpiel pig(winscore={winscore}, horizon={horizon}) value_iteration(cyclic_game=True): "
                  f"{seconds:.2f} s over {states} states, P(first player wins) {(value + 1) / 2:.9f} (its return "
                  f"{value:.9f} in [-1, 1]); hogsolve {ours * 1000:.1f} ms, {mine:.10f}: {seconds / ours:.0f}x")


if __name__ == "__main__":
    main()
