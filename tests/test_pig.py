"""The Pig family against independent references: a plain value iteration over a dict,
the published 53.06% for Pig, exact self-consistency, and Monte Carlo of the engine."""
import json
import re
from fractions import Fraction

import pytest

from hogsolve import get_pig_game, hold_at, hold_at_or_goal
from hogsolve.analysis.pig.evaluate import pig_win_rate
from hogsolve.solver.pig import solve_pig
from hogsolve.pig.engine import PigMatch, play_pig
from hogsolve.util.stats import wilson_interval


def plain_value_iteration(game, tol=1e-14):
    """P(i, j, k) by Gauss-Seidel value iteration over every state, from the rules' text:
    roll (compulsory at k = 0) or hold; a bust hands the turn over; a wipe also zeroes the
    mover's score; reaching the goal wins."""
    g = game.goal
    dist = game.outcomes()
    value = {(i, j, k): 0.5 for i in range(g) for j in range(g) for k in range(g - i)}

    def v(i, j, k):
        return 1.0 if i + k >= g else value[i, j, k]

    while True:
        change = 0.0
        for (i, j, k) in value:
            after = {"bust": 1.0 - v(j, i, 0), "wipe": 1.0 - v(j, 0, 0)}
            roll = sum(float(p) * (v(i, j, k + x) if kind == "add" else after[kind]) for (kind, x), p in dist.items())
            best = roll if k == 0 else max(roll, 1.0 if i + k >= g else 1.0 - v(j, i + k, 0))
            change = max(change, abs(best - value[i, j, k]))
            value[i, j, k] = best
        if change < tol:
            return value


@pytest.mark.parametrize("name, goal", [("pig", 12), ("piglet", 8), ("big-pig", 15), ("two-dice-pig", 15),
                                        pytest.param("big-pig", 30, marks=pytest.mark.slow),
                                        pytest.param("two-dice-pig", 30, marks=pytest.mark.slow)])
def test_solver_matches_plain_value_iteration(name, goal):
    game = get_pig_game(name, goal=goal)
    solution = solve_pig(game)
    reference = plain_value_iteration(game)
    worst = max(abs(solution.values[i, j, k] - p) for (i, j, k), p in reference.items())
    assert solution.certificate.proven
    assert worst <= solution.certificate.error_bound + 1e-12


def test_pig_first_player_wins_53_06_percent():
    """Neller & Presser (2004): the first player wins 53.06% under optimal play."""
    solution = solve_pig(get_pig_game("pig"))
    assert round(solution.first_player_win_probability, 4) == 0.5306
    certificate = solution.certificate
    assert certificate.proven and certificate.error_bound < certificate.min_decision_margin / 2
    # the optimal table played against itself gives the same number (an independent sweep)
    rate = pig_win_rate(solution, solution, solution.game)
    first, average = rate.first, rate.average
    assert first == pytest.approx(solution.first_player_win_probability, abs=1e-12) and average == 0.5
    # the paper's figure: at 0-0 hold at a turn total in the low twenties; near the goal, hold early
    thresholds = solution.game.hold_thresholds(solution.policy)
    assert 19 <= thresholds[0, 0] <= 25 and thresholds[99, 0] == 1


def test_roll_outcomes_are_exact():
    assert get_pig_game("pig").outcomes() == {("bust", 0): Fraction(1, 6), **{("add", x): Fraction(1, 6)
                                                                              for x in range(2, 7)}}
    big = get_pig_game("big-pig").outcomes()
    assert big["add", 25] == Fraction(1, 36) and big["bust", 0] == Fraction(10, 36)
    assert big["add", 24] == Fraction(1, 36) and sum(big.values()) == 1  # double sixes: twice 12
    assert get_pig_game("piglet").outcomes() == {("bust", 0): Fraction(1, 2), ("add", 1): Fraction(1, 2)}


def test_exact_win_rate_agrees_with_monte_carlo():
    game = get_pig_game("pig", goal=50)
    solution = solve_pig(game)
    exact = pig_win_rate(solution, hold_at(20), game).average
    n, wins = 4000, 0
    for seed in range(n):
        optimal_first = seed % 2 == 0
        players = (solution, hold_at(20)) if optimal_first else (hold_at(20), solution)
        winner = play_pig(*players, game, seed=seed).winner
        wins += (winner == 0) == optimal_first
    low, high = wilson_interval(wins / n, n, z=3.3)
    assert low <= exact <= high
    # one goal rule: hold_at holds at the goal as hold_at_or_goal says it in words; the optimum wins more
    plain, spelled_out = (pig_win_rate(solution, s, game) for s in (hold_at(20), hold_at_or_goal(20, game.goal)))
    assert (plain.first, plain.second) == (spelled_out.first, spelled_out.second) and 0.5 < plain.average


def test_engine_rules():
    game = get_pig_game("pig")
    match = PigMatch(game)
    with pytest.raises(ValueError, match="roll at least once"):
        match.hold()
    assert match.roll((4,)) == ("add", 4) and match.state() == (0, 0, 4)
    match.hold()
    assert match.scores == [4, 0] and match.mover == 1
    assert match.roll((1,)) == ("bust", 0) and match.mover == 0 and match.turn_total == 0
    assert get_pig_game("big-pig").outcome_of((3, 3)) == ("add", 12)
    assert get_pig_game("big-pig").outcome_of((1, 1)) == ("add", 25)
    # called directly (as the engine does), hold_at_or_goal holds once holding wins
    smart = hold_at_or_goal(20, 100)
    assert smart(90, 0, 9) and not smart(90, 0, 10) and not smart(0, 0, 20) and hold_at(20)(90, 0, 10)


def test_hold_threshold_shape_and_policy_calls():
    solution = solve_pig(get_pig_game("pig", goal=30))
    t = solution.game.hold_thresholds(solution.policy)
    assert t.shape == (30, 30) and (t >= 1).all()
    i, j = 5, 7
    k = int(t[i, j])
    assert not solution(i, j, k) and all(solution(i, j, kk) for kk in range(1, k))
    assert not solution(29, 0, 1)  # score + turn total at the goal: hold and win
    assert solution.policy[:, :, 0].all()  # the first roll of a turn is compulsory


def test_command_line(capsys):
    from hogsolve.cli import main
    assert main(["solve", "--rules", "pig", "--goal", "30"]) == 0
    out = capsys.readouterr().out
    assert "pig (goal 30): P(first player wins) = " in out and "proven optimal" in out
    assert main(["compare", "optimal", "hold_at:20", "--rules", "pig", "--goal", "30", "--json"]) == 0
    import json
    record = json.loads(capsys.readouterr().out)
    game = get_pig_game("pig", goal=30)
    assert record["exact"]["average"] == pig_win_rate(solve_pig(game), hold_at(20), game).average
    assert main(["compare", "optimal", "hold_at:0", "--rules", "pig"]) == 2
    assert "hold_at:N with N from 1" in capsys.readouterr().err
    assert main(["solve", "--rules", "pig", "su18"]) == 2
    assert main(["rules"]) == 0 and "pig  roll-or-hold, goal 100" in capsys.readouterr().out


def test_play_in_the_terminal(monkeypatch, capsys):
    from hogsolve.sessions.pig_terminal import play_game
    answers = iter(["r", "?", "h"] + ["r"] * 500)
    lines = []
    record = play_game(get_pig_game("pig", goal=20), True, 5, read=lambda prompt: next(answers),
                       write=lines.append)
    text = "\n".join(lines)
    assert "win probability: roll" in text and "held and banked" in text
    assert record["winner"] in ("you", "bot") and max(record["scores"].values()) >= 20


def test_pig_session_like_the_hog_session():
    """The session behind the terminal and the browser: turns, hints from the solved table,
    the bot's optimal choices, and refusals that change nothing."""
    from hogsolve.sessions.hog import SessionError
    from hogsolve.sessions.pig import PigSession
    game = get_pig_game("pig", goal=20)
    solution = solve_pig(game)
    session = PigSession(game, solution, you_first=True, seed=2)
    assert session.to_move == "you" and session.hint()["hold"] is None and session.hint()["best"] == "roll"
    assert session.your_win_probability() == pytest.approx(solution.first_player_win_probability, abs=1e-12)
    with pytest.raises(SessionError, match="roll at least once"):
        session.play("hold")
    with pytest.raises(SessionError, match="choose roll or hold"):
        session.play("pass")
    with pytest.raises(SessionError, match="not the bot's turn"):
        session.bot_step()
    assert session.log == []
    while session.winner is None:
        if session.to_move == "bot":
            i, j, k = session.match.state()
            entry = session.bot_step()
            assert entry["who"] == "bot" and (entry["action"] == "roll") == (k == 0 or solution(i, j, k))
        else:
            hint = session.hint()
            assert hint["best"] == ("hold" if hint["hold"] is not None and hint["hold"] > hint["roll"] else "roll")
            session.play("roll" if session.turn_total < 8 else "hold")
    assert session.your_win_probability() in (0.0, 1.0) and session.record()["winner"] == session.winner
    with pytest.raises(SessionError, match="the game is over"):
        session.play("roll")
    with pytest.raises(ValueError, match="not piglet"):
        PigSession(get_pig_game("piglet"), solution)


def test_best_response():
    from hogsolve.analysis.pig.evaluate import pig_best_response
    game = get_pig_game("pig", goal=40)
    solution = solve_pig(game)
    # against the optimal strategy nothing gains: the best response wins exactly half
    assert abs(pig_best_response(solution, game).exploitability) <= solution.certificate.error_bound + 1e-12
    br = pig_best_response(hold_at(20), game)
    # its own table, played out by the independent evaluator, gives the same win rate
    assert pig_win_rate(br, hold_at(20), game).average == pytest.approx(br.win_rate.average, abs=1e-12)
    assert br.win_rate.average > pig_win_rate(solution, hold_at(20), game).average > 0.5


def test_tournament_command(capsys):
    from hogsolve.cli import main
    assert main(["tournament", "optimal", "hold_at:20", "hold_at:10", "--rules", "pig", "--goal", "30",
                 "--json"]) == 0
    import json
    record = json.loads(capsys.readouterr().out)  # the shape of Hog's round robin (tests/test_cli_every_game.py)
    assert record["ranking"][0]["strategy"] == "optimal"
    game = get_pig_game("pig", goal=30)
    rate = next(r for r in record["ranking"] if r["strategy"] == "hold_at:20")["win_rates"]["hold_at:10"]
    assert rate == pytest.approx(pig_win_rate(hold_at(20), hold_at(10), game).average, abs=1e-15)
    assert main(["best-response", "hold_at:20", "--rules", "pig", "--goal", "30"]) == 0
    assert "exploitability of hold_at:20" in capsys.readouterr().out


def test_exact_verification_in_rationals():
    """The float policy is optimal in every state, exactly; the exact value agrees."""
    from hogsolve.solver.pig.exact import verify_pig
    for name, goal in (("pig", 20), ("big-pig", 20), ("piglet", 10)):
        solution = solve_pig(get_pig_game(name, goal=goal))
        checked = verify_pig(solution)
        assert checked.proven and checked.max_float_error <= solution.certificate.error_bound
        assert abs(float(checked.win_probability_start) - solution.first_player_win_probability) <= 1e-15
    # a planted mistake is caught: hold at a turn total of 1, where rolling is strictly better
    solution = solve_pig(get_pig_game("pig", goal=25))
    assert solution.policy[3, 5, 1]
    solution.policy[3, 5, 1] = False
    assert verify_pig(solution).suboptimal_states == 1


@pytest.mark.slow  # kept out of the default tier for its time; CI runs the slow tier
def test_plot_the_roll_hold_boundary(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from hogsolve.cli import main
    out = tmp_path / "pig.png"
    assert main(["plot", "--rules", "pig", "--goal", "40", "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = tmp_path / "fa19.png"  # a Feral Hogs table is drawn at both memories 0
    assert main(["plot", "--rules", "fa19", "--out", str(out)]) == 0 and out.stat().st_size > 10_000


def test_vectorised_monte_carlo_and_compare_simulate(capsys):
    """The vectorised simulation agrees with the exact win rate inside a 3.3-sigma band, is
    reproducible from its seed, and backs `compare --simulate --rules pig`."""
    from hogsolve.analysis.pig.montecarlo import simulate_pig
    game = get_pig_game("big-pig", goal=60)
    solution = solve_pig(game)
    rate = pig_win_rate(solution, hold_at_or_goal(25, game.goal), game)
    first, second = rate.first, rate.second
    won_first, n_first, won_second, n_second = simulate_pig(solution, hold_at_or_goal(25, game.goal), game, 60_000,
                                                            seed=2)
    for exact, won, n in ((first, won_first, n_first), (second, won_second, n_second)):
        low, high = wilson_interval(won / n, n, z=3.3)
        assert low <= exact <= high
    assert simulate_pig(solution, hold_at_or_goal(25, game.goal), game, 2_000, seed=9) == \
        simulate_pig(solution, hold_at_or_goal(25, game.goal), game, 2_000, seed=9)
    from hogsolve.cli import main
    assert main(["compare", "optimal", "hold_at:20", "--rules", "pig", "--goal", "40", "--simulate", "20000",
                 "--json"]) == 0
    import json
    record = json.loads(capsys.readouterr().out)
    low, high = record["simulated"]["ci95"]
    assert low - 0.01 <= record["exact"]["average"] <= high + 0.01 and record["simulated"]["games"] == 20000


@pytest.mark.slow  # kept out of the default tier for its time; CI runs the slow tier
def test_regret_adds_up_to_the_shortfall(capsys):
    """Performance difference: the per-state expected losses of a strategy against optimal play
    add up exactly to 1/2 minus its win rate (a wrong reach or loss breaks this)."""
    from hogsolve.analysis.pig.evaluate import pig_regret
    game = get_pig_game("pig", goal=30)
    solution = solve_pig(game)
    for strategy in (hold_at(20), hold_at_or_goal(12, game.goal), solution):
        report = pig_regret(strategy, game, solution)
        assert report.total_expected_loss == pytest.approx(0.5 - report.win_rate.average, abs=1e-12)
    assert pig_regret(solution, game, solution).total_expected_loss <= solution.certificate.error_bound
    report = pig_regret(hold_at(20), game, solution)
    assert report.reach[0, 0, 0] >= 0.5 and report.worst(1)[0]["expected_loss"] > 0
    from hogsolve.cli import main
    assert main(["regret", "hold_at:20", "--rules", "pig", "--goal", "30"]) == 0
    assert "= 1/2 - win rate" in capsys.readouterr().out


def test_two_dice_pig_wipes(capsys):
    """Double 1s lose the banked score too: the engine, the exact odds, the solver's fixed
    point at goal 100 with its policy-route certificate, and every downstream evaluator on
    the wipe (Monte Carlo of the engine, the vectorised simulation, the best response)."""
    from hogsolve.analysis.pig.evaluate import pig_best_response
    from hogsolve.solver.pig.certificate import policy_exits
    from hogsolve.analysis.pig.montecarlo import simulate_pig
    game = get_pig_game("two-dice-pig")
    odds = game.outcomes()
    assert odds["wipe", 0] == Fraction(1, 36) and odds["bust", 0] == Fraction(10, 36)
    assert odds["add", 12] == Fraction(1, 36) and odds["add", 7] == Fraction(4, 36) and sum(odds.values()) == 1
    match = PigMatch(game)
    match.roll((3, 4))
    match.hold()
    match.roll((1, 1))  # the second player wipes nothing; then the first player loses 7 banked
    assert match.scores == [7, 0] and match.mover == 0
    match.roll((5, 5))
    assert match.roll((1, 1)) == ("wipe", 0) and match.scores == [0, 0] and match.turn_total == 0
    assert match.mover == 1
    small = get_pig_game("two-dice-pig", goal=30)
    optimal = solve_pig(small)
    rate = pig_win_rate(optimal, hold_at(20), small)
    first, second, average = rate.first, rate.second, rate.average
    n, wins = 800, 0
    for seed in range(n):
        optimal_first = seed % 2 == 0
        players = (optimal, hold_at(20)) if optimal_first else (hold_at(20), optimal)
        wins += (play_pig(*players, small, seed=seed).winner == 0) == optimal_first
    low, high = wilson_interval(wins / n, n, z=3.3)
    assert low <= average <= high
    won_first, n_first, won_second, n_second = simulate_pig(optimal, hold_at(20), small, 40_000, seed=4)
    for exact, won, m in ((first, won_first, n_first), (second, won_second, n_second)):
        low, high = wilson_interval(won / m, m, z=3.3)
        assert low <= exact <= high
    assert abs(pig_best_response(optimal, small).exploitability) <= optimal.certificate.error_bound + 1e-12
    br = pig_best_response(hold_at(20), small)
    assert pig_win_rate(br, hold_at(20), small).average == pytest.approx(br.win_rate.average, abs=1e-12)
    assert br.win_rate.average > average
    wiped, visits = policy_exits(small, optimal.policy)
    assert 0 < wiped.max() < 1 and wiped[1, 0] > 0 and (visits >= 1).all()
    from hogsolve.cli import main
    assert main(["solve", "--rules", "two-dice-pig", "--goal", "30", "--exact"]) == 0
    assert "exact: proof by error bound" in capsys.readouterr().out


@pytest.mark.slow
def test_two_dice_pig_at_goal_100():
    """The wipe's fixed point at goal 100, with its policy-route certificate."""
    from hogsolve.solver.pig.certificate import policy_exits
    game = get_pig_game("two-dice-pig")
    solution = solve_pig(game)
    c = solution.certificate
    assert c.proven and c.error_bound < 1e-9 and len(c.tie_states) == 0
    assert 0.5 < solution.first_player_win_probability < 0.53
    wiped, visits = policy_exits(game, solution.policy)
    assert 0 < wiped.max() < 1 and wiped[0, 0] > 0 and (visits >= 1).all()


def openspiel_pig_values(winscore: int, tol: float = 1e-13) -> dict:
    """Player 0's expected return at every decision state of OpenSpiel's own ``pig`` game,
    reached through its C++ rules (``apply_action``, ``chance_outcomes``, ``returns``) and
    solved by a plain Gauss-Seidel iteration over the states it reaches.  (Its
    ``value_iteration`` enumerates the game tree and does not finish at these sizes; see
    scripts/bench_pig.py.)  Keys: (current player, score 0, score 1, turn total)."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("pig", {"winscore": winscore, "players": 2, "horizon": 100_000})

    def key(state):
        # "Scores: a b, Turn total: k\nCurrent player: p" (" (rolling)" at a chance node)
        a, b, total, player = (int(x) for x in re.findall(r"-?\d+", str(state))[:4])
        return (state.is_chance_node(), player, a, b, total)

    nodes, stack = {}, [game.new_initial_state()]
    while stack:
        state = stack.pop()
        k = key(state)
        if k in nodes:
            continue
        if state.is_terminal():
            nodes[k] = ("end", state.returns()[0])
            continue
        pairs = state.chance_outcomes() if state.is_chance_node() else [(a, None) for a in state.legal_actions()]
        children = []
        for action, p in pairs:
            child = state.clone()
            child.apply_action(action)
            children.append((key(child), p))
            stack.append(child)
        nodes[k] = ("chance" if state.is_chance_node() else k[1], children)
    value = {k: (node[1] if node[0] == "end" else 0.0) for k, node in nodes.items()}
    while True:
        change = 0.0
        for k, node in nodes.items():
            if node[0] == "end":
                continue
            if node[0] == "chance":
                new = sum(p * value[c] for c, p in node[1])
            else:
                options = [value[c] for c, _ in node[1]]
                new = max(options) if node[0] == 0 else min(options)
            change = max(change, abs(new - value[k]))
            value[k] = new
        if change < tol:
            return {k[1:]: v for k, v in value.items() if not k[0] and nodes[k][0] != "end"}


@pytest.mark.parametrize("winscore", [10, pytest.param(20, marks=pytest.mark.slow)])
def test_agrees_with_openspiel_pig(winscore):
    """OpenSpiel's pig (an independent C++ implementation of the rules; holding at a turn total
    of 0 is allowed there, a pass that rolling then holding dominates) gives the same values."""
    theirs = openspiel_pig_values(winscore)
    solution = solve_pig(get_pig_game("pig", goal=winscore))
    worst = 0.0
    for (player, a, b, k), v in theirs.items():
        i, j = (a, b) if player == 0 else (b, a)
        mover_return = 2 * (solution.values[i, j, k] if i + k < winscore else 1.0) - 1
        worst = max(worst, abs((mover_return if player == 0 else -mover_return) - v))
    assert len(theirs) > winscore ** 2 and worst <= 1e-6


def test_verbs_dispatch_by_family(capsys):
    """One registry: a mix of families is one line and exit 2; each family's verb runs its own game."""
    from hogsolve.cli import main
    assert main(["solve", "--rules", "pig", "su18"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: name games of one family at a time") and err.count("\n") == 1
    assert main(["regret", "hold_at:10", "--rules", "piglet", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["rules"] == "piglet" and 0 < record["win_rate_vs_optimal"]["average"] < 0.5
    assert set(record) == {"rules", "goal", "strategy", "win_rate_vs_optimal", "total_expected_loss", "worst_states"}


def test_play_ends_on_end_of_input_or_ctrl_c_with_the_score(capsys, monkeypatch):
    """As Hog's game: the score so far and exit 0, never silence or 130."""
    import io
    from hogsolve.cli import main
    from hogsolve.sessions.pig_terminal import play_game
    monkeypatch.setattr("sys.stdin", io.StringIO("r\n"))
    assert main(["play", "--rules", "pig", "--goal", "20", "--seed", "3"]) == 0
    assert capsys.readouterr().out.rstrip().splitlines()[-1].startswith("Quit. Score so far: You ")

    def interrupted(prompt):
        raise KeyboardInterrupt
    lines = []
    record = play_game(get_pig_game("pig", goal=20), True, 1, read=interrupted, write=lines.append)
    assert lines[-1] == "Quit. Score so far: You 0, Bot 0." and record["winner"] is None


def test_the_simulation_line_reads_as_hogs(capsys):
    from hogsolve.cli import main
    assert main(["compare", "optimal", "hold_at:20", "--rules", "pig", "--goal", "30", "--simulate", "2000"]) == 0
    pig_line = capsys.readouterr().out.splitlines()[-1]
    assert main(["compare", "optimal", "always_roll:4", "--goal", "30", "--simulate", "2000"]) == 0
    hog_line = capsys.readouterr().out.splitlines()[-1]
    shape = r"  simulated, 2000 games \(seed 0\): 0\.\d{6} \(95% interval 0\.\d{6} to 0\.\d{6}\)"
    assert re.fullmatch(shape, pig_line) and re.fullmatch(shape, hog_line)


def test_regret_follows_play_back_down_after_a_wipe():
    """Two-Dice Pig: the reach follows the mass a wipe sends to (j, 0, 0), so the expected
    losses still add up to 1/2 minus the win rate (without the wipes' mass, they would fall
    short)."""
    from hogsolve.analysis.pig import evaluate as pig_evaluate
    game = get_pig_game("two-dice-pig", goal=20)
    solution = solve_pig(game)
    report = pig_evaluate.pig_regret(hold_at(12), game, solution)
    assert report.total_expected_loss == pytest.approx(0.5 - report.win_rate.average, abs=1e-12)
    assert report.total_expected_loss > 0.01


@pytest.mark.parametrize("verb", [["play", "--seed", "1"], ["tournament", "optimal", "hold_at:20", "--goal", "100"]])
def test_play_and_tournament_start_from_the_shipped_tables(verb, monkeypatch):
    """Two-Dice Pig's optimal player comes from its shipped tables: nothing is solved first
    (a solve takes seconds at goal 100)."""
    import hogsolve.strategy.pig as strategy_pig
    from cli_helpers import run_main

    def no_solving(game):
        raise AssertionError(f"{game.name} was solved instead of read from its shipped tables")
    monkeypatch.setattr(strategy_pig, "solve_pig", no_solving)
    if verb[0] == "tournament":  # the win rates themselves take passes over every wipe (tested above)
        from hogsolve.analysis.results import WinRate
        monkeypatch.setattr("hogsolve.analysis.pig.evaluate.pig_win_rate",
                            lambda a, b, game: WinRate("a", "b", 0.5, 0.5))
    result = run_main(verb[0], *verb[1:], "--rules", "two-dice-pig", stdin="q\n")
    assert result.returncode == 0, result.stderr


def test_a_wipe_budget_too_small_says_so(monkeypatch):
    """The values after a wipe, and the mass wipes send back, are repeated to a fixed point;
    with too few solves allowed, the solver and the regret say so instead of answering."""
    from hogsolve.analysis.pig import evaluate as pig_evaluate
    from hogsolve.solver.pig import turns as pig_turns
    from hogsolve.solver.iteration import ConvergenceError
    game = get_pig_game("two-dice-pig", goal=20)
    solution = solve_pig(game)
    monkeypatch.setattr(pig_turns, "MOST_WIPE_SOLVES", 2)
    with pytest.raises(ConvergenceError, match="after a wipe did not settle in 2 solves"):
        solve_pig(game)
    with pytest.raises(ConvergenceError, match="wipes send back did not settle in 2 solves"):
        pig_evaluate.pig_regret(hold_at(12), game, solution)


def test_piglets_coin_is_flipped_not_rolled():
    """Piglet's log says "flipped heads" or "flipped tails" (its coin shows 2 or 1), the dice games
    "rolled".  Mistake: a coin flip told as "rolled 2"."""
    from hogsolve.pig.engine import play_pig
    from hogsolve.sessions.pig_terminal import describe
    from hogsolve.strategy.pig import pig_bot
    piglet = get_pig_game("piglet")
    bot = pig_bot(piglet)
    match = play_pig(bot, bot, piglet, seed=4)
    rolls = [entry for entry in match.log if entry["action"] == "roll"]
    assert rolls and all(entry["said"] == ("flipped heads" if entry["faces"] == [2] else "flipped tails")
                         for entry in rolls)
    assert {describe(entry, "Bot").split(":")[0] for entry in rolls} <= {"Bot flipped heads", "Bot flipped tails"}
    assert get_pig_game("two-dice-pig").said((3, 5)) == "rolled 3 5"


@pytest.mark.parametrize("goal, degenerate", [(20, True), (30, True), (35, True), (40, False)])
def test_a_degenerate_goal_is_named(goal, degenerate):
    """Pig at goals 20, 30 and 35: always rolling is optimal in every state, so a table that learns
    nothing is already optimal (the researchers' guide's example goal was one of them).  Checked
    by playing always-roll (hold at the goal) against the optimum: exactly even then, below even
    otherwise.  Mistake: a benchmark that is degenerate without a word."""
    from hogsolve.families import ROLL_OR_HOLD
    format_roll_or_hold_solution = ROLL_OR_HOLD.describe_solution
    game = get_pig_game("pig", goal=goal)
    solution = solve_pig(game)
    even = pig_win_rate(hold_at(goal), solution, game).average
    assert (solution.degenerate == "always roll") == degenerate
    assert (abs(even - 0.5) < 1e-12) == degenerate
    assert ("note: always roll is optimal in every state" in format_roll_or_hold_solution(solution)) == degenerate
