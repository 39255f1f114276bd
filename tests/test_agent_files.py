"""Agents on observation vectors reach the command line as ``FILE.py:NAME``, isolated like a
student's file, and score exactly what :func:`hogsolve.interop.evaluate_agent` gives."""
import json
from pathlib import Path

import numpy as np
import pytest

from cli_helpers import run_main
from hogsolve import get_pig_game, get_rules
from hogsolve.interop import evaluate_agent
from hogsolve.strategy.specs import load_strategy
from hogsolve.strategy.userfile import tabulate_table

THRESHOLD_AGENT = """\
import numpy as np


class Agent:  # Stable-Baselines3's shape: predict(observations) -> (actions, state)
    def predict(self, observation, deterministic=True):
        o = np.atleast_2d(observation)
        return np.where(o[:, 0] < 25, 4, 2), None


agent = Agent()
"""


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path / "cache"))


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)
    return folder / name


def json_of(*args) -> dict:
    result = run_main(*args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def scores_as_evaluate_agent(spec: str, game: tuple, expected, runs: int = 1) -> None:
    """``compare`` (``runs`` times: the later ones from the cache) and ``best-response`` of the
    agent file ``spec`` print what ``evaluate_agent`` found for the same agent."""
    for _ in range(runs):
        exact = json_of("compare", spec, "optimal", *game)["exact"]
        assert exact["first"] == pytest.approx(expected.against_optimal.first, abs=1e-12)
        assert exact["second"] == pytest.approx(expected.against_optimal.second, abs=1e-12)
    response = json_of("best-response", spec, *game)
    assert response["exploitability"] == pytest.approx(expected.exploitability, abs=1e-12)


def test_an_agent_file_scores_in_compare_best_response_and_regret_as_evaluate_agent(tmp_path):
    namespace = {}
    exec(THRESHOLD_AGENT, namespace)
    expected = evaluate_agent(namespace["agent"], get_rules("su18", goal=40))
    spec = f"{write(tmp_path, 'agent.py', THRESHOLD_AGENT)}:agent"
    goal = ("--rules", "su18", "--goal", "40")
    scores_as_evaluate_agent(spec, goal, expected)
    regret = json_of("regret", spec, *goal)
    assert regret["worst_states"][0] == expected.worst_states[0]


def test_a_feral_hogs_agent_sees_the_memories(tmp_path):
    """Under fa19 an agent's table has the memory axes: the state's memories, capped where
    larger ones play alike, are in its observation."""
    rules = get_rules("fa19", goal=12).replace(max_dice=4)
    agent = "def agent(o):\n    return 1 + int(o[2]) % 4\n"
    table, source, _ = tabulate_table(str(write(tmp_path, "feral.py", agent)), "agent", rules)
    assert table.shape == (12, 12) + rules.context_shape
    assert table[3, 4, 3, 0] == 1 + 3 % 4 and table[3, 4, 2, 4] == 1 + 2 % 4
    again, source_again, _ = tabulate_table(str(tmp_path / "feral.py"), "agent", rules)
    assert source_again.get("cached") and np.array_equal(again, table)
    assert np.array_equal(evaluate_agent(lambda o: 1 + o[2] % 4, rules).table, table)


def test_a_pig_agent_and_a_pig_function_through_the_command_line(tmp_path):
    game = get_pig_game("pig", goal=20)
    write(tmp_path, "pig.py", "def agent(o):\n    return 0 if o[2] < 8 else 1\n\n"
                              "def rule(score, opponent_score, turn_total):\n    return turn_total < 8\n")
    expected = evaluate_agent(lambda o: 0 if o[2] < 8 else 1, game)
    goal = ("--rules", "pig", "--goal", "20")
    for name in ("agent", "rule"):
        exact = json_of("compare", f"{tmp_path / 'pig.py'}:{name}", "optimal", *goal)["exact"]
        assert exact["average"] == pytest.approx(expected.against_optimal.average, abs=1e-12)
    response = json_of("best-response", f"{tmp_path / 'pig.py'}:agent", *goal)
    assert response["exploitability"] == pytest.approx(expected.exploitability, abs=1e-12)


@pytest.mark.parametrize("body, message", [
    ("def agent(o):\n    return 11 if o[0] > 30 else 3\n",
     "chose 11 at the observation [31, 0]; expected an action from 0 to 10"),
    ("import random\ndef agent(o):\n    return random.randrange(3)\n", "it samples its actions"),
    ("def agent(o):\n    return 2.5\n", "chose 2.5 at the observation [0, 0]"),
    ("def agent(o):\n    raise KeyError('q')\n", "raised KeyError: 'q'"),
])
def test_a_bad_agent_is_one_line_exit_2(tmp_path, body, message):
    result = run_main("compare", f"{write(tmp_path, 'bad.py', body)}:agent", "optimal", "--rules", "su18",
                      "--goal", "40")
    assert result.returncode == 2 and message in result.stderr and len(result.stderr.splitlines()) == 1


def test_an_agent_that_hangs_is_stopped_at_the_observation_it_was_given(tmp_path):
    """Mistake: the place a stopped agent was reported as another phase's (or as before it
    started): the student needs the observation that hung it."""
    body = "def agent(o):\n    while o[0] == 5 and o[1] == 7:\n        pass\n    return 3\n"
    result = run_main("compare", f"{write(tmp_path, 'hangs.py', body)}:agent", "optimal", "--rules", "su18",
                      "--goal", "40", "--strategy-timeout", "1")
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    assert "did not finish within 1 s (stopped at the observation of score 5, opponent score 7)" in result.stderr


def test_a_batch_answer_that_depends_on_the_batch_is_asked_row_by_row(tmp_path):
    """An agent whose batch answers depend on a row's place in the batch is not trusted with
    a batch: its table holds its single-row answers."""
    body = ("import numpy as np\n"
            "def agent(o):\n"
            "    o = np.asarray(o)\n"
            "    return 3 if o.ndim == 1 else np.arange(len(o)) % 2\n")
    policy = load_strategy(f"{write(tmp_path, 'shifty.py', body)}:agent", get_rules("su18", goal=40))
    assert (policy.table == 3).all()


def test_the_child_of_a_plain_strategy_does_not_import_numpy_and_a_users_numpy_py_does_not_shadow_it(tmp_path):
    plain = "import sys\ndef final_strategy(score, opponent_score):\n    return 5 if 'numpy' in sys.modules else 4\n"
    policy = load_strategy(f"{write(tmp_path / 'a', 'hog.py', plain)}:final_strategy", get_rules("su18", goal=40))
    assert (policy.table == 4).all()
    write(tmp_path / "b", "numpy.py", "raise ImportError('the student numpy.py')\n")
    policy = load_strategy(f"{write(tmp_path / 'b', 'agent.py', 'def agent(o):' + chr(10) + '    return 6' + chr(10))}"
                           ":agent", get_rules("su18", goal=40))
    assert (policy.table == 6).all()


def test_an_observed_memory_is_capped_where_larger_ones_play_alike():
    """sp20 remembers points: a memory of 25 plays as the table's last memory, and the
    observation shows that index, so an agent's table is what it plays."""
    from hogsolve.families import game_spec
    spec = game_spec("sp20", 40)
    state = spec.new_state()
    state.match.remembered = [25, 3]
    last = spec.rules.context_shape[0] - 1
    assert spec.observe(state, 0).tolist() == [0, 0, last, 3]
    assert spec.highs.tolist() == [40, 40, last, last]


def test_an_agent_that_rolls_fewer_dice_than_the_rules_allow_is_named_in_the_message(tmp_path):
    """Neller's Hog forbids rolling no dice; the check is made on the table the agent's answers
    give, in this process.  Mistake: that failure's message lost (the file's label, the reason)."""
    from hogsolve import get_rules
    from hogsolve.strategy.userfile import UserFileError, tabulate_file
    path = write(tmp_path, "zero.py", "def agent(o):\n    return 0\n")
    with pytest.raises(UserFileError) as failure:
        tabulate_file(str(path), "agent", get_rules("hog", goal=10), use_cache=False)
    assert str(failure.value) == f"{path}:agent chose fewer than 1 die, which hog forbids"


SOFTMAX_AGENT = """\
import numpy as np


class Agent:  # gives the chance of each action: evaluated exactly as its mixture
    def action_probabilities(self, observations):
        o = np.atleast_2d(np.asarray(observations, dtype=float))
        logits = -0.2 * (np.arange(ACTIONS)[None, :] - 3 - (o[:, 1:2] - o[:, 0:1]) / 8) ** 2
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))
        return weights / weights.sum(axis=1, keepdims=True)


agent = Agent()
"""


@pytest.mark.parametrize("rules, actions, game", [("su18", 11, ("--rules", "su18", "--goal", "30")),
                                                  ("pig", 2, ("--rules", "pig", "--goal", "20"))])
def test_an_agent_file_that_gives_probabilities_scores_its_mixture_in_compare(tmp_path, rules, actions, game):
    """Mistakes: the child's probabilities refused or read as actions, the mixture scored other
    than evaluate_agent scores it, the cache giving back ints for floats on the second run, or
    the regret (which takes a fixed strategy) answering with a traceback instead of one line."""
    text = SOFTMAX_AGENT.replace("ACTIONS", str(actions))
    namespace = {}
    exec(text, namespace)
    kind = {"rules": rules} if rules == "su18" else {"game": rules}
    expected = evaluate_agent(namespace["agent"], **kind, goal=int(game[-1]))
    spec = f"{write(tmp_path, 'agent.py', text)}:agent"
    scores_as_evaluate_agent(spec, game, expected, runs=2)  # the second from the cache
    refused = run_main("regret", spec, *game)
    assert refused.returncode == 2 and "takes a fixed strategy" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
